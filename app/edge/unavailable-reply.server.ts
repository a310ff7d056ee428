// The answer while the database is unavailable (docs/decisions/0036-database-outages-answer-503.md):
// 503 with Retry-After, translated, in the shape the caller reads (an HTML page with "Try again"
// for browsers, oRPC's error shape under /rpc, `{code, message}` for programs and for React
// Router's `.data` fetches, whose client shows it in the app's error page).
import type { RequestLog } from "~/lib/logger.server";
import { DATABASE_RETRY_AFTER_SECONDS } from "~/lib/database-unavailable.server";
import type { EdgeReply } from "./replies.server";

export const DATABASE_UNAVAILABLE_REPLY: EdgeReply = {
  status: 503,
  code: "SERVICE_UNAVAILABLE",
  messageKey: "database.unavailable",
  headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS) },
  retry: true,
};

/**
 * What to send instead of React Router's response, if anything. A loader, action or middleware
 * that failed on an unavailable database makes React Router answer 500 with a generic error (it
 * hides server errors in production); the request's log has the reason (noteDatabaseUnavailable),
 * so that 500 becomes the 503. A 503 a route gave itself (a DomainError) gets its Retry-After.
 */
export function databaseOutageReply(scope: RequestLog, response: Response): EdgeReply | undefined {
  if (scope.databaseUnavailable && response.status >= 500 && response.status !== 503) return DATABASE_UNAVAILABLE_REPLY;
  if (response.status === 503 && !response.headers.has("Retry-After")) {
    try {
      response.headers.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    } catch {
      return DATABASE_UNAVAILABLE_REPLY; // immutable headers: answer it ourselves
    }
  }
  return undefined;
}

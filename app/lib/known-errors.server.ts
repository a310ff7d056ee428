// Which failures the caller is told about in words, in one place for pages, actions and /rpc.
import { isVanishedReference } from "~/db-errors.server";
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "./database-unavailable.server";
import { DomainError, isDomainError } from "./domain-error";
import { logger, noteDatabaseUnavailable, type RequestLog } from "./logger.server";

/**
 * A failure as the DomainError the caller should see, or null for a real fault (logged, 500).
 * Besides the domain's own refusals, a write whose referenced row vanished between the request's
 * checks and its write (Prisma's P2003 or P2025) is a conflict: someone deleted it meanwhile, most
 * often the same person in another tab (the account deleted while an organization was being
 * created). The failed statement wrote nothing and its transaction rolled back; steps committed
 * before it stay, so work of several steps keeps its steps in one transaction. Such a conflict is
 * also what a wrong id in our own code would look like, so each one is logged (model and
 * constraint, no values) to tell a race from a bug.
 */
export function asDomainError(error: unknown, requestLog?: RequestLog | null): DomainError | null {
  if (isDomainError(error)) return error;
  // The database is down, restarting or full: 503 with Retry-After, not a fault of ours (decision
  // 0036). Given the request's log, its line names the reason (/rpc notes it in its handler).
  if (isDatabaseUnavailable(error)) {
    if (requestLog !== undefined) noteDatabaseUnavailable(requestLog, error);
    return new DomainError("SERVICE_UNAVAILABLE", "database.unavailable", { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS });
  }
  if (isVanishedReference(error)) {
    const { code, meta } = error as { code: string; meta?: Record<string, unknown> };
    logger.warn({ code, modelName: meta?.modelName, constraint: meta?.constraint ?? meta?.field_name }, "a referenced row vanished");
    return new DomainError("CONFLICT", "changedMeanwhile");
  }
  return null;
}

// The HTTP headers of a DomainError, in one place for every way one is answered: pages and forms
// (app/web/), JSON endpoints and /rpc.
import type { DomainError } from "./domain-error";

/** `Retry-After` when the error says when to come back (a rate limit, a busy export), in the
 * header HTTP clients already understand. The RateLimit fields are the JSON endpoints' addition
 * (rateLimitHeaders, docs/contract.md). */
export function errorHeaders(error: DomainError): Record<string, string> {
  return error.retryAfterSeconds === undefined ? {} : { "Retry-After": String(error.retryAfterSeconds) };
}

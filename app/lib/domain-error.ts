// The one error type of the domain. Domain code throws it with a code and a translation key;
// it is turned into an HTTP response in exactly one place (app/lib/http-errors.server.ts) and
// into an oRPC error in exactly one place (app/rpc/errors.server.ts); both word it with
// domainErrorMessage below.
import type { ErrorKey } from "./error-key";

const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  /** The database is unavailable (app/lib/database-unavailable.server.ts): come back shortly. */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A rate-limit policy's standing for one caller (app/lib/rate-limit.server.ts). */
export interface RateLimitState {
  policy: string;
  limit: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  /** Key under `errors.` in the locale files. */
  readonly messageKey: ErrorKey;
  readonly params: Record<string, string | number>;
  readonly retryAfterSeconds?: number;
  /** For a rate-limit refusal: where the refusing policy stands (the HTTP answer's RateLimit headers). */
  readonly rateLimits?: readonly RateLimitState[];

  constructor(
    code: ErrorCode,
    messageKey: ErrorKey,
    options: { params?: Record<string, string | number>; retryAfterSeconds?: number; rateLimits?: readonly RateLimitState[] } = {},
  ) {
    super(`${code}: ${messageKey}`);
    this.name = "DomainError";
    this.code = code;
    this.messageKey = messageKey;
    this.params = options.params ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.rateLimits = options.rateLimits;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

/** What wording an error needs of i18n's `t` (app/i18n/keys.ts): the keys under `errors:`. */
export type ErrorTranslator = (key: `errors:${ErrorKey}`, options?: { readonly [option: string]: unknown }) => string;

/** "15 minutes" / "42 seconds" in the reader's language: people do not count in 900 seconds. */
function waitText(seconds: number, t: ErrorTranslator): string {
  return seconds < 60 ? t("errors:wait.seconds", { count: seconds }) : t("errors:wait.minutes", { count: Math.ceil(seconds / 60) });
}

/** The translated message of a DomainError; a retry delay is offered to the text as {{wait}}. */
export function domainErrorMessage(error: DomainError, t: ErrorTranslator): string {
  const wait = error.retryAfterSeconds === undefined ? {} : { wait: waitText(error.retryAfterSeconds, t) };
  return t(`errors:${error.messageKey}`, { ...error.params, ...wait });
}

// A failed request's error as a delivery failure (send-result.ts): which of the failure codes, and
// a short detail the page shows beside it. The detail is our side's words only: an error code
// (CERT_HAS_EXPIRED, ECONNREFUSED) or the refused address and its range, never a body or a header.
import type { DeliveryFailure, SendResult } from "~/audit-streams/outbound/send-result";
import { AddressRefusedError } from "~/audit-streams/outbound/guarded-connection.server";

/** The whole request went past the policy's time; raised by our own timer. */
export class OutboundTimeoutError extends Error {
  readonly code = "TIMEOUT";
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs / 1000} s`);
    this.name = "OutboundTimeoutError";
  }
}

/** The answer's body went past the policy's limit; raised while reading it. */
export class ResponseTooLargeError extends Error {
  readonly code = "RESPONSE_TOO_LARGE";
  constructor(readonly maxBytes: number) {
    super(`answer larger than ${Math.round(maxBytes / 1024)} KB`);
    this.name = "ResponseTooLargeError";
  }
}

export type SendFailure = Extract<SendResult, { ok: false }>;

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);

/** OpenSSL's and Node's TLS error codes: an untrusted, expired or wrong-host certificate, or no TLS at all. */
function isTlsCode(code: string): boolean {
  return (
    /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(code) ||
    code === "EPROTO" ||
    code === "ERR_TLS_CERT_ALTNAME_INVALID"
  );
}

function errorCode(error: unknown): string | null {
  if (typeof error !== "object" || error === null) return null;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? null : errorCode(cause);
}

function findError<T>(error: unknown, type: abstract new (...args: never[]) => T): T | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof type) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function failed(failure: DeliveryFailure, detail: string, status: number | null = null): SendFailure {
  return { ok: false, failure, status, detail: detail.slice(0, 200) };
}

/** A thrown or emitted error as the attempt's failure. */
export function failureOfError(error: unknown): SendFailure {
  const refused = findError(error, AddressRefusedError);
  if (refused) return failed("address_refused", refused.message);
  const timeout = findError(error, OutboundTimeoutError);
  if (timeout) return failed("timeout", timeout.message);
  const tooLarge = findError(error, ResponseTooLargeError);
  if (tooLarge) return failed("response_too_large", tooLarge.message);
  const code = errorCode(error);
  if (code && DNS_CODES.has(code)) return failed("dns", code);
  if (code && isTlsCode(code)) return failed("tls", code);
  return failed("network", code ?? (error instanceof Error && error.message ? error.message : "connection failed"));
}

/** An answer's status as success or failure: 2xx delivered, 3xx never followed, anything else refused. */
export function resultOfStatus(status: number): SendResult {
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 300 && status < 400) return failed("redirect", `answered ${status}, redirects are not followed`, status);
  return failed("http_status", `answered ${status}`, status);
}

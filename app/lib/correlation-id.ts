// correlationId must be a non-secret identifier (docs/product-rules.md, Audit event rule 7). A request id, a UUID,
// a ULID or a W3C trace id pass; anything that looks like a credential is refused
// (docs/decisions/0013-audit-recording-core.md). The request edge takes a proxy's X-Request-Id only when it
// passes too, so the request id can always be the events' correlation id (decision 0038):
//   - 1-128 characters of A-Z a-z 0-9 . _ : -
//   - no segment between separators longer than 32 characters (secrets are long random runs)
//   - no segment shaped like a session token (32 characters of a-z 2-7)
//   - no `sk_` API key marker
const ALLOWED = /^[A-Za-z0-9._:-]{1,128}$/;
const SESSION_TOKEN_SHAPE = /^[a-z2-7]{32}$/;

export function isSafeCorrelationId(value: string): boolean {
  if (!ALLOWED.test(value)) return false;
  if (/sk_/i.test(value)) return false;
  return value.split(/[._:-]/).every((segment) => segment.length <= 32 && !SESSION_TOKEN_SHAPE.test(segment));
}

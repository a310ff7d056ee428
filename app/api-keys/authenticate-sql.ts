// The statement behind apiKey.authenticate, on its own so the benchmark's plain node:http + pg
// baseline runs exactly the same SQL (bench/servers/baseline.ts).
//
// `key` reads the key through the unique index in the statement's snapshot; `touched` writes
// last used unless another request is writing it at this very moment (SKIP LOCKED): that write
// carries the same instant, and waiting for it would queue every request for a busy key behind
// one row lock (docs/decisions/0014-api-key-authenticate-hot-path.md).
export const AUTHENTICATE_SQL = `
  WITH key AS (
    SELECT id, organization_id, scopes, scopes @> $2::text[] AS allowed
      FROM api_keys
     WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
  ), locked AS (
    SELECT api_keys.id FROM api_keys JOIN key ON key.id = api_keys.id AND key.allowed
       FOR NO KEY UPDATE OF api_keys SKIP LOCKED
  ), touched AS (
    UPDATE api_keys SET last_used_at = now() FROM locked WHERE api_keys.id = locked.id
  )
  SELECT id, organization_id, scopes, allowed FROM key`;

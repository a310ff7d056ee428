// The statement behind apiKey.authenticate, on its own so the benchmark's plain node:http + pg
// baseline runs exactly the same SQL (bench/servers/baseline.ts).
//
// `touched` finds the key through the unique index on its hash, unrevoked, unexpired and holding
// every requested scope, locks it unless another transaction holds it at this very moment (SKIP
// LOCKED), writes last used and returns it: the usual call ends there (the second branch is
// skipped once `touched` has its row). Otherwise the second branch says why, without writing: no
// row is the 401 (unknown, expired, revoked: one path for all three), a row without the scopes the
// 403 (last used untouched), and a row with them a key another transaction holds locked at that
// instant: usually another request writing the same last used (a 200 that does not queue behind
// that lock), or a rotation or revocation not yet committed, which this call, like every call that
// starts before the commit, does not see (a 200 whose last used is not written). One round trip
// either way (docs/decisions/0014-api-key-authenticate-hot-path.md, 0040-authenticate-profiled.md).
export const AUTHENTICATE_SQL = `
  WITH touched AS (
    UPDATE api_keys SET last_used_at = now()
     WHERE id = (SELECT id FROM api_keys
                  WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
                    AND scopes @> $2::text[]
                    FOR NO KEY UPDATE SKIP LOCKED)
    RETURNING id, organization_id, scopes, true AS allowed
  )
  SELECT id, organization_id, scopes, allowed FROM touched
  UNION ALL
  SELECT id, organization_id, scopes, scopes @> $2::text[] FROM api_keys
   WHERE secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
     AND NOT EXISTS (SELECT FROM touched)`;

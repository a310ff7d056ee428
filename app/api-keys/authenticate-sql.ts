// The statements behind apiKey.authenticate, on their own so the benchmark's plain node:http + pg
// servers run exactly the same SQL (bench/servers/baseline.ts, bench/authenticate-routing.ts).
//
// A call that arrives alone runs AUTHENTICATE_SQL; two or more calls of one organization that arrive
// in the same turn of the event loop share AUTHENTICATE_BATCH_SQL (docs/decisions/0066-authenticate-batched.md).
// The two give the same answers; the one-key statement costs PostgreSQL about half as much for one
// call, the batch statement a fraction of it per call from a handful of calls on.
//
// AUTHENTICATE_SQL names the key's organization ($3) beside its hash ($1) on every read and write
// of api_keys, served by the unique index on (organization_id, secret_hash): on a database
// distributed by organization (Citus) the statement reaches the one shard that holds the key
// (docs/decisions/0048-routed-secrets.md). A secret issued since then carries its organization;
// an older one finds it first through LEGACY_ORGANIZATION_SQL.
//
// `touched` finds the key, unrevoked, unexpired and holding every requested scope, locks it unless
// another transaction holds it at this very moment (SKIP LOCKED), writes last used and returns it:
// the usual call ends there (the second branch is skipped once `touched` has its row). Otherwise
// the second branch says why, without writing: no row is the 401 (unknown, expired, revoked, or a
// secret naming an organization that has no such key: one path for all), a row without the scopes
// the 403 (last used untouched), and a row with them a key another transaction holds locked at
// that instant: usually another request writing the same last used (a 200 that does not queue
// behind that lock), or a rotation or revocation not yet committed, which this call, like every
// call that starts before the commit, does not see (a 200 whose last used is not written). One
// round trip either way (docs/decisions/0014-api-key-authenticate-hot-path.md, 0040-authenticate-profiled.md).
export const AUTHENTICATE_SQL = `
  WITH touched AS (
    UPDATE api_keys SET last_used_at = now()
     WHERE organization_id = $3::uuid
       AND id = (SELECT id FROM api_keys
                  WHERE organization_id = $3::uuid AND secret_hash = $1
                    AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
                    AND scopes @> $2::text[]
                    FOR NO KEY UPDATE SKIP LOCKED)
    RETURNING id, organization_id, scopes, true AS allowed
  )
  SELECT id, organization_id, scopes, allowed FROM touched
  UNION ALL
  SELECT id, organization_id, scopes, scopes @> $2::text[] FROM api_keys
   WHERE organization_id = $3::uuid AND secret_hash = $1
     AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
     AND NOT EXISTS (SELECT FROM touched)`;

// AUTHENTICATE_BATCH_SQL answers every call of one organization ($1) that arrived in the same turn
// of the event loop, in one round trip and one commit. Like the one-key statement it names the
// organization on every read and write of api_keys, so on Citus it reaches one shard.
//
// $2 holds the presented hashes, $3 beside each the scopes that call requires, joined with commas
// (scope names have none). `presented` reads every unrevoked, unexpired key presented, once; `held`
// locks those that at least one call holds all its scopes for, unless another transaction holds the
// row at this very moment (SKIP LOCKED), checking again that the row it locks still has a presented
// secret and is neither revoked nor expired (a rotation or revocation committed meanwhile is not
// written to, as in the one-key statement); `touched` writes their last used. The result is
// `presented`, each key with its scopes: the caller answers each call from it, no row being the 401
// and a row without the call's scopes the 403 (that call wrote nothing), as the one-key statement
// does. A key held locked elsewhere at that instant is answered from the statement's snapshot
// without queueing behind the lock, its last used not written by this call. A key presented several
// times is locked and written once.
export const AUTHENTICATE_BATCH_SQL = `
  WITH asked AS (
    SELECT secret_hash, string_to_array(scopes, ',') AS scopes
      FROM unnest($2::bytea[], $3::text[]) AS asked(secret_hash, scopes)
  ), presented AS MATERIALIZED (
    SELECT k.id, k.secret_hash, k.scopes FROM api_keys k
     WHERE k.organization_id = $1::uuid AND k.secret_hash = ANY ($2::bytea[])
       AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
  ), held AS (
    SELECT k.id FROM api_keys k
     WHERE k.organization_id = $1::uuid
       AND k.id = ANY (ARRAY(SELECT p.id FROM presented p
                              WHERE EXISTS (SELECT FROM asked a WHERE a.secret_hash = p.secret_hash AND p.scopes @> a.scopes)))
       AND k.secret_hash = ANY ($2::bytea[])
       AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
       FOR NO KEY UPDATE SKIP LOCKED
  ), touched AS (
    UPDATE api_keys SET last_used_at = now()
     WHERE organization_id = $1::uuid AND id = ANY (ARRAY(SELECT id FROM held))
  )
  SELECT secret_hash, id, scopes FROM presented`;

/**
 * The organization of a secret issued before secrets named it (52 characters), by its hash, from
 * the small lookup table the migration filled (a reference table on Citus: every node has it).
 */
export const LEGACY_ORGANIZATION_SQL = `SELECT organization_id FROM api_key_legacy_secrets WHERE secret_hash = $1`;

/**
 * The transition's fallback, for a 52-character secret with no lookup row: a key the previous
 * release issued or rotated while this one was rolling out (it writes no lookup row). By the hash
 * alone, through the plain index on it: on Citus this read goes to every shard, which is why it is
 * only the fallback and a later release removes it (docs/decisions/0048-routed-secrets.md).
 */
export const UNROUTED_ORGANIZATION_SQL = `SELECT organization_id FROM api_keys WHERE secret_hash = $1 LIMIT 1`;

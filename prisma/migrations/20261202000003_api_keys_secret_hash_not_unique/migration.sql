-- keyledger:no-transaction
-- The global unique index on the secret's hash goes: Citus refuses a unique index without the
-- distribution column, and nothing needs it now (the two indexes before this one serve every
-- lookup; no code, old or new, relies on a hash conflict). Dropped CONCURRENTLY so authenticate and
-- key changes never wait for it (docs/decisions/0048-routed-secrets.md).
DROP INDEX CONCURRENTLY IF EXISTS "api_keys_secret_hash_key";

-- keyledger:no-transaction
-- The hash alone, not unique: what serves a 52-character secret without a lookup row (a key the
-- previous release issued while this one rolled out) and the previous release's own authenticate,
-- once the global unique index below goes. A later release drops it with that fallback
-- (docs/decisions/0048-routed-secrets.md).
CREATE INDEX CONCURRENTLY "api_keys_secret_hash_idx" ON "api_keys" ("secret_hash");

-- keyledger:no-transaction
-- apiKey.authenticate's probe: the organization the secret names, then its hash (unique within the
-- organization; on Citus a unique index must include the distribution column). Built CONCURRENTLY
-- so keys are issued, rotated and used meanwhile (docs/decisions/0048-routed-secrets.md).
CREATE UNIQUE INDEX CONCURRENTLY "api_keys_organization_id_secret_hash_key" ON "api_keys" ("organization_id", "secret_hash");

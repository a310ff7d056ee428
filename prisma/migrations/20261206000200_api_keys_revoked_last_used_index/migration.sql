-- keyledger:no-transaction
-- The revoked-keys history sorted by last use (keys page `sort=lastUsed`, apiKey.list `sort`): most
-- recent use first, never-used keys last as '-infinity', then the id, so keyset pages stay a range
-- read as the revocation order's are (docs/decisions/0059-findable-keys.md). Partial: keys in use
-- (at most 25) are sorted in memory. CONCURRENTLY: a plain build would block issuing and revoking.
CREATE INDEX CONCURRENTLY "api_keys_revoked_last_used_idx" ON "api_keys" ("organization_id", (COALESCE("last_used_at", '-infinity'::timestamptz)) DESC, "id" DESC) WHERE "revoked_at" IS NOT NULL;

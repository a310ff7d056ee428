-- The keys page's "Revoked keys" history: newest revocation first, in keyset pages of
-- (revoked_at, id). Without this index each page read every key the organization ever revoked
-- (a scan and a sort that grow with the history); with it a page reads its own rows. The
-- unrevoked list is served by "api_keys_organization_id_name_unrevoked_key" (WHERE revoked_at IS NULL).
-- Who revoked a key is not stored here: it is the actor of the key's api_key.revoked audit event.
CREATE INDEX "api_keys_organization_id_revoked_at_id_idx" ON "api_keys"("organization_id", "revoked_at" DESC, "id" DESC);

-- keyledger:no-transaction
-- The expiry reminders' planner scan (every 15 minutes, across organizations): unrevoked keys with
-- an expiry, by expiry (docs/decisions/0058-expiry-reminders.md). Partial, so the revoked history and
-- keys that never expire add nothing to it. CONCURRENTLY: the build still reads every row of
-- api_keys, revoked history included, and a plain build would block issuing, rotating, revoking and
-- authenticate's last-use writes for that long.
CREATE INDEX CONCURRENTLY "api_keys_unrevoked_expiry_idx" ON "api_keys" ("expires_at") WHERE "revoked_at" IS NULL AND "expires_at" IS NOT NULL;

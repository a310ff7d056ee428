-- keyledger:no-transaction
-- The daily housekeeping finds ended sessions by their sliding expiry (never later than the
-- absolute one), in small batches; built CONCURRENTLY so sign-ins keep writing sessions meanwhile.
CREATE INDEX CONCURRENTLY "sessions_expires_at_idx" ON "sessions" ("expires_at");

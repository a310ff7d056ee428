-- The account page lists a person's sessions so they can recognize and end the ones they do not
-- know: where each came from (the browser's User-Agent and the client address at sign-in) and
-- when it was last used (kept to within a few minutes, not written on every request).
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
ALTER TABLE "sessions" ADD COLUMN "user_agent" TEXT;
ALTER TABLE "sessions" ADD COLUMN "ip_address" TEXT;

-- Expiry reminders (issue 33, docs/decisions/0058-expiry-reminders.md).
--
-- The person's language, for mails that answer no request (the reminders; other background mails
-- could read it later). NULL until the person signs up, signs in or switches language while signed
-- in: read as English. Adding a nullable column without a default changes only the catalog.
SET LOCAL lock_timeout = '10s';

ALTER TABLE "users" ADD COLUMN "language" TEXT;
ALTER TABLE "users" ADD CONSTRAINT "users_language_check" CHECK ("language" IN ('en', 'de'));

-- One row per reminder planned: a key, the kind (7 days or 1 day before), and the expiry it was
-- planned for. The unique key is what makes each reminder exactly once, however many planners run
-- at the same time (INSERT ... ON CONFLICT DO NOTHING: only the one that inserted queues the mails).
-- prefix: the key's secret when it was planned; a rotation since then drops the mail (the sender
-- compares it). Gone with the key and with the organization.
CREATE TABLE "api_key_expiry_reminders" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "prefix" TEXT NOT NULL,
    "planned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "api_key_expiry_reminders_pkey" PRIMARY KEY ("organization_id", "id"),
    CONSTRAINT "api_key_expiry_reminders_kind_check" CHECK ("kind" IN ('seven_days', 'one_day')),
    CONSTRAINT "api_key_expiry_reminders_organization_id_fkey" FOREIGN KEY ("organization_id")
        REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION,
    CONSTRAINT "api_key_expiry_reminders_api_key_fkey" FOREIGN KEY ("organization_id", "api_key_id")
        REFERENCES "api_keys" ("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION
);
CREATE UNIQUE INDEX "api_key_expiry_reminders_organization_id_api_key_id_kind_expires_at_key"
    ON "api_key_expiry_reminders" ("organization_id", "api_key_id", "kind", "expires_at");

-- The planner's index on api_keys is built CONCURRENTLY by the next migration (20261206000001).

-- The app plans and reads reminders (the default privileges of 20261203000000 would grant this too,
-- but only for tables made by the role that set them; said here so it holds whoever migrates). Not
-- an append-only record: a reminder is a plan, not history (the audit log is that).
GRANT SELECT, INSERT, UPDATE, DELETE ON "api_key_expiry_reminders" TO keyledger_app;

-- Keys reported leaked by a secret scanner (GitHub's secret scanning partner program, issue 33;
-- docs/decisions/0060-secret-scanning-reports.md). One row per key: the report of the secret the
-- key had when it was found (its hash, so a rotation leaves the report behind: the badge shows only
-- while the key still has that secret), where it was found first, and how often it was reported
-- since. The row's insert is what decides, atomically, that the key's owners and admins are
-- mailed: a replayed or re-signed report finds the row and mails nobody.
-- The foreign key takes a short SHARE ROW EXCLUSIVE lock on api_keys: rather than queue behind a
-- transaction that holds it and stall every key write (authenticate's last use) behind it, give up
-- after a few seconds; the migration rolls back whole and the next migrate tries again (decision 0050).
SET LOCAL lock_timeout = '10s';

CREATE TABLE "api_key_leak_reports" (
    "organization_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "secret_hash" BYTEA NOT NULL,
    "token_type" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "first_reported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "last_reported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "report_count" INTEGER NOT NULL DEFAULT 1,
    CONSTRAINT "api_key_leak_reports_pkey" PRIMARY KEY ("organization_id", "api_key_id"),
    -- Gone with its key, and so with its organization (whose deletion cascades into its keys).
    CONSTRAINT "api_key_leak_reports_organization_id_api_key_id_fkey" FOREIGN KEY ("organization_id", "api_key_id")
        REFERENCES "api_keys" ("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION
);

-- The app inserts a report and counts repeats (UPDATE); rows go only with their key (no DELETE).
GRANT SELECT, INSERT, UPDATE ON "api_key_leak_reports" TO keyledger_app;

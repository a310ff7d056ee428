-- Audit log streaming (issue 32, docs/decisions/0052-audit-streams.md).
--
-- Each event remembers the transaction that wrote it: streams deliver in (transaction, id) order,
-- and only below the oldest transaction still in flight, so an event committed late is never
-- passed over by a cursor that already moved beyond it. The column is added without a default
-- first (only the catalog changes, no table rewrite, however many events there are), then the
-- default is set for the rows written from now on; the rows already there keep NULL, read as '0'
-- (they were all committed before any stream could exist). The stream order's index is built
-- CONCURRENTLY by the next migration, so audited changes go on while it builds.
--
-- Both ALTERs take a short exclusive lock on audit_events; rather than queue behind a long read
-- (an export) and stall every audited change behind it, they give up after a few seconds, the
-- whole migration rolls back, and the next migrate (the next start) tries again.
SET LOCAL lock_timeout = '10s';

ALTER TABLE "audit_events" ADD COLUMN "transaction_id" xid8;
ALTER TABLE "audit_events" ALTER COLUMN "transaction_id" SET DEFAULT pg_current_xact_id();

-- An organization's destinations. settings and credentials are the two halves of
-- splitDestination() (app/audit-streams/destinations.ts); credentials never leave the server.
CREATE TABLE "audit_streams" (
    "organization_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "settings" JSONB NOT NULL,
    "credentials" JSONB NOT NULL,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_by_user_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "cursor_transaction_id" xid8 NOT NULL DEFAULT '0',
    "cursor_event_id" UUID NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
    "deliver_from" TIMESTAMPTZ(3),
    "last_delivered_at" TIMESTAMPTZ(3),
    "next_attempt_at" TIMESTAMPTZ(3),
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "failing_since" TIMESTAMPTZ(3),
    "failing_notified_at" TIMESTAMPTZ(3),
    -- The run delivering now holds the stream until then (renewed each batch): one run at a time,
    -- and a run whose process died gives the stream up when its lease ends, not when graphile-worker
    -- takes back a dead worker's job (hours later). docs/decisions/0053-stream-delivery.md.
    "delivery_lease" UUID,
    "delivery_lease_until" TIMESTAMPTZ(3),
    CONSTRAINT "audit_streams_pkey" PRIMARY KEY ("organization_id", "id"),
    CONSTRAINT "audit_streams_kind_check" CHECK ("kind" IN ('webhook', 'splunk', 'datadog', 's3')),
    CONSTRAINT "audit_streams_organization_id_fkey" FOREIGN KEY ("organization_id")
        REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
);

-- The newest failures of each stream (the delivery page shows them; the delivery job keeps 20).
CREATE TABLE "audit_stream_failures" (
    "organization_id" UUID NOT NULL,
    "stream_id" UUID NOT NULL,
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "failure" TEXT NOT NULL,
    "status" INTEGER,
    "detail" TEXT NOT NULL,
    CONSTRAINT "audit_stream_failures_pkey" PRIMARY KEY ("organization_id", "id"),
    CONSTRAINT "audit_stream_failures_stream_fkey" FOREIGN KEY ("organization_id", "stream_id")
        REFERENCES "audit_streams" ("organization_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION
);
CREATE INDEX "audit_stream_failures_organization_id_stream_id_at_idx"
    ON "audit_stream_failures" ("organization_id", "stream_id", "at" DESC);

-- The app reads and writes both (the default privileges of 20261203000000 would grant this too, but
-- only for tables made by the role that set them; said here so it holds whoever migrates).
GRANT SELECT, INSERT, UPDATE, DELETE ON "audit_streams", "audit_stream_failures" TO keyledger_app;

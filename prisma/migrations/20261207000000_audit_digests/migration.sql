-- Signed, chained digests of each organization's audit log (issue 34; docs/decisions/0061-audit-digests.md,
-- the format in docs/audit-digests.md). One row per digest: the signed document exactly as signed, its
-- Ed25519 signature, and the entries it commits to (56 bytes per event: id, created_at, SHA-256 of the
-- event's canonical content). The columns beside the document repeat what the writer needs to
-- continue the chain; the verifier trusts only the signed document and names a row that disagrees
-- with it. Removed with their organization (the spec's cascade), like its log.
-- The foreign key takes a short SHARE ROW EXCLUSIVE lock on organizations: give up rather than queue
-- behind a long transaction and stall every write behind it (decision 0050).
SET LOCAL lock_timeout = '10s';

CREATE TABLE "audit_digests" (
    "organization_id" UUID NOT NULL,
    "sequence" INTEGER NOT NULL,
    "period_start" TIMESTAMPTZ(3),
    "period_end" TIMESTAMPTZ(3) NOT NULL,
    "last_transaction_id" xid8 NOT NULL,
    "last_event_id" UUID NOT NULL,
    "horizon" xid8 NOT NULL,
    "event_count" INTEGER NOT NULL,
    "key_id" TEXT NOT NULL,
    "document" TEXT NOT NULL,
    "signature" BYTEA NOT NULL,
    "entries" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    CONSTRAINT "audit_digests_pkey" PRIMARY KEY ("organization_id", "sequence"),
    CONSTRAINT "audit_digests_sequence_check" CHECK ("sequence" >= 1),
    CONSTRAINT "audit_digests_organization_id_fkey" FOREIGN KEY ("organization_id")
        REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION
);

-- Append-only by privileges, as the log itself (decision 0049): the app writes a digest once and
-- reads it; only the table's owner (and the cascade, which runs as the owner) removes rows.
GRANT SELECT, INSERT ON "audit_digests" TO keyledger_app;

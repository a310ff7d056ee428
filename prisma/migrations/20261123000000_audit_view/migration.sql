-- The audit log view at scale (docs/decisions/0024-audit-view-at-scale.md).

-- A key's history: events about one target, newest first, in keyset order.
CREATE INDEX "audit_events_organization_id_target_id_created_at_id_idx"
    ON "audit_events" ("organization_id", "target_id", "created_at" DESC, "id" DESC);

-- Events per organization, UTC day and action, for the activity chart. Kept by a statement-level
-- trigger in the same transaction as the events themselves, so it can never disagree with them;
-- one aggregate row per statement, so bulk inserts (COPY, INSERT ... SELECT) pay once, not per row.
-- Audit events are append-only; the rows go with their organization.
CREATE TABLE "audit_event_days" (
    "organization_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "action" TEXT NOT NULL,
    "events" BIGINT NOT NULL,
    CONSTRAINT "audit_event_days_pkey" PRIMARY KEY ("organization_id", "day", "action"),
    CONSTRAINT "audit_event_days_organization_id_fkey" FOREIGN KEY ("organization_id")
        REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE FUNCTION "audit_event_days_count"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "audit_event_days" ("organization_id", "day", "action", "events")
    SELECT "organization_id", ("created_at" AT TIME ZONE 'UTC')::date, "action", count(*)
    FROM "inserted_events"
    GROUP BY 1, 2, 3
    -- A fixed order, so two transactions adding to the same rows lock them in the same order.
    ORDER BY 1, 2, 3
    ON CONFLICT ("organization_id", "day", "action")
    DO UPDATE SET "events" = "audit_event_days"."events" + EXCLUDED."events";
    RETURN NULL;
END;
$$;

CREATE TRIGGER "audit_events_count_days"
    AFTER INSERT ON "audit_events"
    REFERENCING NEW TABLE AS "inserted_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_event_days_count"();

INSERT INTO "audit_event_days" ("organization_id", "day", "action", "events")
SELECT "organization_id", ("created_at" AT TIME ZONE 'UTC')::date, "action", count(*)
FROM "audit_events"
GROUP BY 1, 2, 3;

-- Keys the server makes for itself (e.g. the one that signs audit-log cursors): made once by
-- whichever instance needs one first, shared by every instance through the database.
CREATE TABLE "server_secrets" (
    "name" TEXT NOT NULL,
    "secret" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "server_secrets_pkey" PRIMARY KEY ("name"),
    CONSTRAINT "server_secrets_secret_length" CHECK (octet_length("secret") >= 32)
);

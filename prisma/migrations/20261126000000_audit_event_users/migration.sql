-- Every user an organization's audit log names, as actor or as target (the export's name
-- directory, docs/decisions/0025-audit-export.md, item 2). With it the export reads the names of
-- everyone its rows can name before it starts, in its own snapshot, and writes them from memory:
-- per-row lookups in the COPY were most of PostgreSQL's work at a million rows, and a user target
-- can be any account, so the users cannot be listed from anything else without reading the events.
--
-- Kept like audit_event_actors: a statement-level trigger in the same transaction as the events,
-- so it never disagrees with them, and bulk inserts pay once per statement. The id is the event's
-- own text. Audit events are append-only; the rows go with their organization.
CREATE TABLE "audit_event_users" (
    "organization_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    CONSTRAINT "audit_event_users_pkey" PRIMARY KEY ("organization_id", "user_id"),
    CONSTRAINT "audit_event_users_organization_id_fkey" FOREIGN KEY ("organization_id")
        REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE FUNCTION "audit_event_users_note"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "audit_event_users" ("organization_id", "user_id")
    SELECT "organization_id", "user_id" FROM (
        SELECT "organization_id", "actor_id" AS "user_id" FROM "inserted_events" WHERE "actor_kind" = 'user'
        UNION
        SELECT "organization_id", "target_id" FROM "inserted_events" WHERE "target_type" = 'user'
    ) AS "named"
    -- A fixed order, so two transactions adding the same users lock them in the same order.
    ORDER BY "organization_id", "user_id"
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "audit_events_note_users"
    AFTER INSERT ON "audit_events"
    REFERENCING NEW TABLE AS "inserted_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_event_users_note"();

INSERT INTO "audit_event_users" ("organization_id", "user_id")
SELECT "organization_id", "actor_id" FROM "audit_events" WHERE "actor_kind" = 'user'
UNION
SELECT "organization_id", "target_id" FROM "audit_events" WHERE "target_type" = 'user';

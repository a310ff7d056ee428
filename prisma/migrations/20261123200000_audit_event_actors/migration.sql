-- The audit view's actor filter lists every actor an organization's log has ever named
-- (docs/decisions/0024-audit-view-at-scale.md, item 3). A loose index scan over audit_events found
-- them with one index descent per actor, but PostgreSQL planned that recursive query afresh on
-- every page view (about 0.7 ms of planning plus 0.5 ms of execution at a million events). This
-- table answers the same question with one index range read under a cached plan.
--
-- Kept like audit_event_days: a statement-level trigger in the same transaction as the events,
-- so it never disagrees with them, and bulk inserts pay once per statement. An actor already
-- listed costs one index probe (ON CONFLICT DO NOTHING writes nothing). Audit events are
-- append-only; the rows go with their organization.
CREATE TABLE "audit_event_actors" (
    "organization_id" UUID NOT NULL,
    "actor_id" TEXT NOT NULL,
    "actor_kind" "ActorKind" NOT NULL,
    CONSTRAINT "audit_event_actors_pkey" PRIMARY KEY ("organization_id", "actor_id"),
    CONSTRAINT "audit_event_actors_organization_id_fkey" FOREIGN KEY ("organization_id")
        REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE FUNCTION "audit_event_actors_note"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "audit_event_actors" ("organization_id", "actor_id", "actor_kind")
    SELECT DISTINCT ON ("organization_id", "actor_id") "organization_id", "actor_id", "actor_kind"
    FROM "inserted_events"
    -- A fixed order, so two transactions adding the same actors lock them in the same order.
    ORDER BY "organization_id", "actor_id"
    ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "audit_events_note_actors"
    AFTER INSERT ON "audit_events"
    REFERENCING NEW TABLE AS "inserted_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_event_actors_note"();

INSERT INTO "audit_event_actors" ("organization_id", "actor_id", "actor_kind")
SELECT DISTINCT ON ("organization_id", "actor_id") "organization_id", "actor_id", "actor_kind"
FROM "audit_events"
ORDER BY "organization_id", "actor_id";

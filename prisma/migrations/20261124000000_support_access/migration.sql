-- Support access (docs/decisions/0026-support-console.md). A platform admin opens access to one
-- organization for one session by stating a reason; the grant ends with the session (signing in
-- again starts a new support session) or with the organization.
CREATE TABLE "support_access_grants" (
    "session_id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "admin_user_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "ticket" TEXT,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "support_access_grants_pkey" PRIMARY KEY ("session_id", "organization_id"),
    CONSTRAINT "support_access_grants_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "support_access_grants_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- What was viewed: the audit view's query string, an event id.
ALTER TABLE "support_actions" ADD COLUMN "subject" TEXT;
-- Ids are UUIDv7 from now on, so (created_at, id) orders records as they were written.
ALTER TABLE "support_actions" ALTER COLUMN "id" DROP DEFAULT;

-- The records page: newest first, all of them or one admin's; the organization filter uses the
-- existing (organization_id, created_at) index.
CREATE INDEX "support_actions_created_at_id_idx" ON "support_actions" ("created_at" DESC, "id" DESC);
CREATE INDEX "support_actions_admin_user_id_created_at_idx" ON "support_actions" ("admin_user_id", "created_at" DESC, "id" DESC);

-- The records page's admin filter lists today's platform admins, few among all users.
CREATE INDEX "users_platform_admins_idx" ON "users" ("name", "id") WHERE "is_platform_admin";

-- The records outlive the organizations and sessions they name (no foreign keys) and cannot be
-- changed or removed by the application: UPDATE, DELETE and TRUNCATE are refused, as for the
-- audit log. This guards against application mistakes, not against database operators.
CREATE FUNCTION "support_actions_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'support actions are append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "support_actions_append_only"
    BEFORE UPDATE OR DELETE ON "support_actions"
    FOR EACH ROW EXECUTE FUNCTION "support_actions_refuse_change"();

CREATE TRIGGER "support_actions_no_truncate"
    BEFORE TRUNCATE ON "support_actions"
    FOR EACH STATEMENT EXECUTE FUNCTION "support_actions_refuse_change"();

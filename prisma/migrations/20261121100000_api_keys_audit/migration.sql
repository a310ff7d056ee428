-- CreateEnum
CREATE TYPE "ActorKind" AS ENUM ('user', 'api_key', 'job', 'agent', 'system');

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "scopes" TEXT[],
    "secret_hash" BYTEA NOT NULL,
    "prefix" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" TEXT NOT NULL,
    "actor_kind" "ActorKind" NOT NULL,
    "actor_id" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "details" JSONB NOT NULL,
    "idempotency_key" TEXT,
    "correlation_id" TEXT,
    "content_hash" TEXT NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");

-- CreateIndex
CREATE INDEX "api_keys_organization_id_created_at_idx" ON "api_keys"("organization_id", "created_at");

-- CreateIndex
CREATE INDEX "audit_events_organization_id_created_at_id_idx" ON "audit_events"("organization_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_action_created_at_id_idx" ON "audit_events"("organization_id", "action", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_actor_id_created_at_id_idx" ON "audit_events"("organization_id", "actor_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_organization_id_idempotency_key_key" ON "audit_events"("organization_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------------------------
-- Written by hand: what schema.prisma cannot express.

-- A key's name is unique among the organization's unrevoked keys; a revoked key's name can be
-- reused (spec, API key).
CREATE UNIQUE INDEX "api_keys_organization_id_name_unrevoked_key" ON "api_keys"("organization_id", "name") WHERE "revoked_at" IS NULL;

-- Every key holds at least one scope (spec, Limits), whatever code writes the row.
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_not_empty" CHECK ("scopes" IS NOT NULL AND cardinality("scopes") >= 1);

-- The audit log is append-only for the application: UPDATE, DELETE and TRUNCATE are refused.
-- Deleting an organization must still remove its events (spec, Recording rules 7). That DELETE
-- is issued by the foreign key's internal ON DELETE CASCADE trigger, so our trigger then runs
-- nested (pg_trigger_depth() > 1), while a statement sent by the application runs at depth 1.
-- This guards against application mistakes, not against database operators (spec, Limits).
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit events are append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_events_append_only"
    BEFORE UPDATE OR DELETE ON "audit_events"
    FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();

CREATE TRIGGER "audit_events_no_truncate"
    BEFORE TRUNCATE ON "audit_events"
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"();

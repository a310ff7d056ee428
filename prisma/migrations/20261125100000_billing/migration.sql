-- Billing (docs/decisions/0029-billing.md). The placeholder state "ok" becomes "active", and the
-- column takes only the contract's states. plan_id gets no CHECK: the catalog may drop a plan that
-- organizations still have (they then show its id and have no flags); the procedures refuse
-- unknown plan ids instead.
UPDATE "organizations" SET "billing_state" = 'active' WHERE "billing_state" = 'ok';
ALTER TABLE "organizations" ALTER COLUMN "billing_state" SET DEFAULT 'active';
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_billing_state_check"
  CHECK ("billing_state" IN ('active', 'past_due', 'past_due_blocked', 'canceled'));

-- The payment provider's events already applied, by the provider's own event id: a repeated
-- delivery (providers retry until they get a 2xx) finds its id here and changes nothing. Kept with
-- the organization: deleting the organization deletes them (a later replay is then a 404).
CREATE TABLE "billing_provider_events" (
    "provider" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "organization_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "billing_provider_events_pkey" PRIMARY KEY ("provider", "event_id"),
    CONSTRAINT "billing_provider_events_outcome_check" CHECK ("outcome" IN ('applied', 'unchanged'))
);
CREATE INDEX "billing_provider_events_organization_id_idx" ON "billing_provider_events"("organization_id");
ALTER TABLE "billing_provider_events" ADD CONSTRAINT "billing_provider_events_organization_id_fkey"
  FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

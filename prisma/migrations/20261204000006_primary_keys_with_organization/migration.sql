-- Every tenant table's primary key includes organization_id (Citus refuses a primary key or unique
-- constraint on a distributed table without its distribution column; decision 0050). The new keys'
-- indexes were built CONCURRENTLY by 20261204000000..05, so each swap here only renames an index
-- and changes the catalog: no table is scanned or rewritten (every column involved is NOT NULL).
-- The swaps take a short exclusive lock on each table; rather than queue behind a long read (an
-- export on the primary) and stall every request behind it, they give up after a few seconds, the
-- whole migration rolls back, and the next migrate (the next start) tries again.
SET LOCAL lock_timeout = '10s';

ALTER TABLE "api_keys"
  DROP CONSTRAINT "api_keys_pkey",
  ADD CONSTRAINT "api_keys_pkey" PRIMARY KEY USING INDEX "api_keys_organization_id_id_key";

ALTER TABLE "audit_events"
  DROP CONSTRAINT "audit_events_pkey",
  ADD CONSTRAINT "audit_events_pkey" PRIMARY KEY USING INDEX "audit_events_organization_id_id_key";

ALTER TABLE "invitations"
  DROP CONSTRAINT "invitations_pkey",
  ADD CONSTRAINT "invitations_pkey" PRIMARY KEY USING INDEX "invitations_organization_id_id_key";

ALTER TABLE "memberships"
  DROP CONSTRAINT "memberships_pkey",
  ADD CONSTRAINT "memberships_pkey" PRIMARY KEY USING INDEX "memberships_organization_id_id_key";

-- organizations.logo_id pointed at organization_logos (id, organization_id) through a foreign key,
-- and the unique index it used goes with the old key. The key is not made again: on Citus,
-- organizations is a reference table (one copy per node) and organization_logos is distributed, and
-- a reference table may not point at a distributed one (docs/decisions/0051-citus-placement.md).
-- What it guarded stays guarded in the code, under the organization's row lock: the settings accept
-- only a logo of the organization's own uploads, and an upload's prune never removes the logo in use.
ALTER TABLE "organizations" DROP CONSTRAINT "organizations_logo_owned_fkey";
ALTER TABLE "organization_logos"
  DROP CONSTRAINT "organization_logos_pkey",
  ADD CONSTRAINT "organization_logos_pkey" PRIMARY KEY USING INDEX "organization_logos_organization_id_id_key";
DROP INDEX "organization_logos_id_organization_id_key";

-- (provider, event_id) stays unique across organizations through billing_provider_event_ids
-- (20261204000007); here the organization's own key, which also serves its reads by organization.
ALTER TABLE "billing_provider_events"
  DROP CONSTRAINT "billing_provider_events_pkey",
  ADD CONSTRAINT "billing_provider_events_pkey" PRIMARY KEY USING INDEX "billing_provider_events_organization_id_provider_event_id_key";
DROP INDEX "billing_provider_events_organization_id_idx";

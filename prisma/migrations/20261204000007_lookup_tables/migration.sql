-- The values looked up across organizations (a slug, an invitation link's token, a payment
-- provider's event id) move to small lookup tables keyed by the value and naming its organization
-- (decision 0050). On Citus they are reference tables (a copy on every node): the lookup finds the
-- organization, and the tenant row is then read on that organization's shard alone. The uniqueness
-- that global indexes on the tenant tables gave moves to the lookups' primary keys; the code writes
-- a lookup row in the same transaction as the row it indexes and deletes it with that row (there
-- can be no foreign key from a reference table to a distributed one). Filled here from the rows
-- that exist, which the old unique indexes kept free of duplicates, then those indexes go.
SET LOCAL lock_timeout = '10s';

-- One slug per organization, one organization per slug.
CREATE TABLE "organization_slugs" (
  "slug" TEXT NOT NULL,
  "organization_id" UUID NOT NULL,
  CONSTRAINT "organization_slugs_pkey" PRIMARY KEY ("slug")
);
CREATE UNIQUE INDEX "organization_slugs_organization_id_key" ON "organization_slugs" ("organization_id");
INSERT INTO "organization_slugs" ("slug", "organization_id") SELECT "slug", "id" FROM "organizations";

-- A row for each invitation whose link still works or still answers "expired" (token_hash set);
-- an invitation has at most one link at a time.
CREATE TABLE "invitation_tokens" (
  "token_hash" BYTEA NOT NULL,
  "organization_id" UUID NOT NULL,
  "invitation_id" UUID NOT NULL,
  CONSTRAINT "invitation_tokens_pkey" PRIMARY KEY ("token_hash")
);
CREATE UNIQUE INDEX "invitation_tokens_organization_id_invitation_id_key" ON "invitation_tokens" ("organization_id", "invitation_id");
INSERT INTO "invitation_tokens" ("token_hash", "organization_id", "invitation_id")
  SELECT "token_hash", "organization_id", "id" FROM "invitations" WHERE "token_hash" IS NOT NULL;

-- Every provider event applied, once across all organizations.
CREATE TABLE "billing_provider_event_ids" (
  "provider" TEXT NOT NULL,
  "event_id" TEXT NOT NULL,
  "organization_id" UUID NOT NULL,
  CONSTRAINT "billing_provider_event_ids_pkey" PRIMARY KEY ("provider", "event_id")
);
CREATE INDEX "billing_provider_event_ids_organization_id_idx" ON "billing_provider_event_ids" ("organization_id");
INSERT INTO "billing_provider_event_ids" ("provider", "event_id", "organization_id")
  SELECT "provider", "event_id", "organization_id" FROM "billing_provider_events";

-- Last, so the exclusive locks a DROP INDEX takes on organizations (read by every page) and on
-- invitations are held only from here to the commit, not while the tables above are filled.
DROP INDEX "organizations_slug_key";
DROP INDEX "invitations_token_hash_key";

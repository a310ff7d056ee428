-- organizations.logo_id pointed at (organization_logos.id, organization_id) through a foreign key. On
-- Citus, organizations is a reference table (one copy per node) and organization_logos is distributed
-- by organization: a reference table may not point at a distributed one, so the key goes
-- (docs/decisions/0051-citus-placement.md). What it guarded stays guarded in the code, under the
-- organization's row lock: the settings accept only a logo of the organization's own uploads, and
-- the upload's prune never removes the logo in use (app/organizations/).
ALTER TABLE "organizations" DROP CONSTRAINT IF EXISTS "organizations_logo_owned_fkey";

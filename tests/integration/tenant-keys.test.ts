// Primary keys and unique constraints of the migrated schema, read from PostgreSQL's catalog
// (decision 0050): the tenant tables' keys include organization_id, and the global uniques (slug,
// invitation token, billing event id) live in lookup tables keyed by the value. That every key of a
// distributed table includes its distribution column is tests/integration/citus-rules.test.ts's.
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";

interface UniqueIndex {
  table: string;
  name: string;
  columns: string[];
  primary: boolean;
}

async function uniqueIndexes(): Promise<UniqueIndex[]> {
  return prisma.$queryRaw<UniqueIndex[]>`
    SELECT t.relname::text AS "table", i.relname::text AS name, x.indisprimary AS primary,
           array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
                   JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns
      FROM pg_index x
      JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indisunique AND t.relnamespace = 'public'::regnamespace
     ORDER BY 1, 2`;
}

const primaryKeyOf = async (table: string) => (await uniqueIndexes()).find((index) => index.table === table && index.primary)?.columns;

describe("primary keys and uniques", () => {
  it("leave no global slug unique on organizations: the lookup holds it", async () => {
    const indexes = (await uniqueIndexes()).filter((index) => index.table === "organizations");
    expect(indexes.map((index) => index.name)).not.toContain("organizations_slug_key");
  });

  it("are (organization_id, id) for the tenant tables that had id alone, and the organization's key for billing events", async () => {
    for (const table of ["api_keys", "audit_events", "invitations", "organization_logos", "memberships"]) {
      expect([table, await primaryKeyOf(table)]).toEqual([table, ["organization_id", "id"]]);
    }
    expect(await primaryKeyOf("billing_provider_events")).toEqual(["organization_id", "provider", "event_id"]);
    // The global ones are gone; memberships keep one membership per person and organization.
    const names = (await uniqueIndexes()).map((index) => index.name);
    expect(names).not.toContain("invitations_token_hash_key");
    expect(names).not.toContain("organization_logos_id_organization_id_key");
    expect(names).toContain("memberships_organization_id_user_id_key");
  });

  it("of the lookups are the looked-up values", async () => {
    expect(await primaryKeyOf("organization_slugs")).toEqual(["slug"]);
    expect(await primaryKeyOf("invitation_tokens")).toEqual(["token_hash"]);
    expect(await primaryKeyOf("billing_provider_event_ids")).toEqual(["provider", "event_id"]);
    // One slug per organization, one link per invitation.
    const names = (await uniqueIndexes()).map((index) => index.name);
    expect(names).toContain("organization_slugs_organization_id_key");
    expect(names).toContain("invitation_tokens_organization_id_invitation_id_key");
  });

  it("leave the current logo to the code: no key from organizations (reference) to the logos (distributed)", async () => {
    const keys = await prisma.$queryRaw<unknown[]>`
      SELECT 1 FROM pg_constraint WHERE conrelid = 'organizations'::regclass AND confrelid = 'organization_logos'::regclass`;
    expect(keys).toEqual([]);
  });
});

// Primary keys and unique constraints of the migrated schema, read from PostgreSQL's catalog
// (decision 0050): on Citus, every one of a table distributed by organization_id must include that
// column (organizations: its id), so the global uniques (slug, invitation token, billing event id)
// live in lookup tables keyed by the value instead.
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";

/** Tables distributed by organization_id (docs/scale-out.md), and organizations by its id. */
const DISTRIBUTED = [
  "api_keys",
  "audit_events",
  "audit_event_days",
  "audit_event_actors",
  "audit_event_users",
  "billing_provider_events",
  "invitations",
  "memberships",
  "organization_logos",
  "support_access_grants",
];

/** Uniques another part of issue 31 removes, with the part that does (not this change's to touch). */
const ELSEWHERE: Record<string, string> = {
  api_keys_secret_hash_key: "routed secrets (authenticate reaches one shard): issue 31, deliverable 3, part A",
};

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
  it("include organization_id on every table distributed by it", async () => {
    const indexes = (await uniqueIndexes()).filter((index) => DISTRIBUTED.includes(index.table));
    expect(new Set(indexes.map((index) => index.table))).toEqual(new Set(DISTRIBUTED));
    const without = indexes.filter((index) => !index.columns.includes("organization_id") && !Object.hasOwn(ELSEWHERE, index.name));
    expect(without.map((index) => `${index.table}.${index.name}(${index.columns.join(", ")})`)).toEqual([]);
  });

  it("include id on organizations (its distribution column), so no global slug unique is left", async () => {
    const indexes = (await uniqueIndexes()).filter((index) => index.table === "organizations");
    expect(indexes.filter((index) => !index.columns.includes("id")).map((index) => index.name)).toEqual([]);
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

  it("leave no foreign key pointing at a key without organization_id", async () => {
    const keys = await prisma.$queryRaw<{ name: string; referenced: string[] }[]>`
      SELECT c.conname::text AS name,
             array(SELECT a.attname::text FROM unnest(c.confkey) k(attnum)
                     JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS referenced
        FROM pg_constraint c
       WHERE c.contype = 'f' AND c.confrelid::regclass::text = ANY(${DISTRIBUTED})`;
    expect(keys.filter((key) => !key.referenced.includes("organization_id")).map((key) => key.name)).toEqual([]);
  });
});

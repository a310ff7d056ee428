// The foreign keys of the migrated schema, read from PostgreSQL's catalog: none cascades an update
// of the key it references (ids never change; Citus refuses the cascade on distributed tables:
// docs/decisions/0047-no-update-cascade.md), every one is validated, and every relation in
// schema.prisma says so too, so a migration generated from it would not bring the cascade back.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";

interface ForeignKey {
  table: string;
  name: string;
  onUpdate: string;
  onDelete: string;
  validated: boolean;
}

async function foreignKeys(): Promise<ForeignKey[]> {
  return prisma.$queryRaw<ForeignKey[]>`
    SELECT conrelid::regclass::text AS "table", conname::text AS name, confupdtype::text AS "onUpdate",
           confdeltype::text AS "onDelete", convalidated AS validated
      FROM pg_constraint
     WHERE contype = 'f' AND connamespace = 'public'::regnamespace
     ORDER BY 1, 2`;
}

describe("foreign keys", () => {
  it("never cascade an update, and are all validated", async () => {
    const keys = await foreignKeys();
    expect(keys.length).toBeGreaterThanOrEqual(21);
    expect(keys.filter((key) => key.onUpdate !== "a").map((key) => `${key.table}.${key.name}: ${key.onUpdate}`)).toEqual([]);
    expect(keys.filter((key) => !key.validated).map((key) => `${key.table}.${key.name}`)).toEqual([]);
  });

  it("kept their delete actions (cascade for what an organization or a person owns, set null for who made it)", async () => {
    const actions = new Set((await foreignKeys()).map((key) => `${key.table}.${key.name}:${key.onDelete}`));
    expect(actions).toContain("api_keys.api_keys_organization_id_fkey:c");
    expect(actions).toContain("api_keys.api_keys_created_by_id_fkey:n");
    expect(actions).toContain("memberships.memberships_user_id_fkey:c");
  });

  it("say NoAction on update in schema.prisma for every relation", async () => {
    const schema = await readFile(join(import.meta.dirname, "..", "..", "prisma", "schema.prisma"), "utf8");
    const relations = schema.split("\n").filter((line) => line.includes("@relation(fields:"));
    expect(relations.length).toBeGreaterThanOrEqual(21);
    expect(relations.filter((line) => !line.includes("onUpdate: NoAction"))).toEqual([]);
  });
});

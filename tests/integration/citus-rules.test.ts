// The migrated schema, read from PostgreSQL's catalog, against Citus's documented rules for the
// placement prisma/citus/distribution.ts gives each table (docs/scale-out.md). Citus itself cannot
// run here; what these rules cover is what create_distributed_table and create_reference_table
// refuse, so the distribution script would run on a migrated database as it is.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import { colocationGroup, distributionScript, placementOf, PLACEMENTS, type Placement } from "../../prisma/citus/distribution";

interface UniqueIndex {
  table: string;
  name: string;
  columns: string[];
}

interface ForeignKey {
  table: string;
  name: string;
  columns: string[];
  referenced: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

async function tables(): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ name: string }[]>`
    SELECT relname::text AS name FROM pg_class
     WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') ORDER BY 1`;
  return rows.map((row) => row.name);
}

/** Primary keys, unique constraints and unique indexes (partial ones included), by column name; an
 * expression in an index shows as "(expression)", which never counts as the distribution column. */
async function uniqueIndexes(): Promise<UniqueIndex[]> {
  return prisma.$queryRaw<UniqueIndex[]>`
    SELECT i.indrelid::regclass::text AS "table", c.relname::text AS name,
           array(SELECT coalesce(a.attname::text, '(expression)')
                   FROM unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n)
                   LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum AND k.attnum > 0
                  ORDER BY k.n) AS columns
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indisunique AND c.relnamespace = 'public'::regnamespace
     ORDER BY 1, 2`;
}

async function foreignKeys(): Promise<ForeignKey[]> {
  return prisma.$queryRaw<ForeignKey[]>`
    SELECT f.conrelid::regclass::text AS "table", f.conname::text AS name,
           array(SELECT a.attname::text FROM unnest(f.conkey) WITH ORDINALITY AS k(attnum, n)
                   JOIN pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns,
           f.confrelid::regclass::text AS referenced,
           array(SELECT a.attname::text FROM unnest(f.confkey) WITH ORDINALITY AS k(attnum, n)
                   JOIN pg_attribute a ON a.attrelid = f.confrelid AND a.attnum = k.attnum ORDER BY k.n) AS "referencedColumns",
           f.confdeltype::text AS "onDelete", f.confupdtype::text AS "onUpdate"
      FROM pg_constraint f
     WHERE f.contype = 'f' AND f.connamespace = 'public'::regnamespace
     ORDER BY 1, 2`;
}

function placed(table: string): Placement {
  const placement = placementOf(table);
  if (!placement) throw new Error(`${table} has no placement in prisma/citus/distribution.ts`);
  return placement;
}

/** What Citus refuses for a foreign key between two placements, or null when it accepts it. */
function foreignKeyProblem(key: ForeignKey): string | null {
  const from = placed(key.table);
  const to = placed(key.referenced);
  if (from.kind === "reference" && to.kind !== "reference") return `a reference table may only point at reference tables, not ${to.kind}`;
  if (from.kind === "local" && to.kind === "distributed") return "a local table may not point at a distributed table";
  if (from.kind === "distributed" && to.kind === "local") return "a distributed table may not point at a local table";
  if (from.kind !== "distributed") return null;
  const holdsDistribution = key.columns.includes(from.column);
  if (to.kind === "distributed") {
    if (colocationGroup(key.table) !== colocationGroup(key.referenced)) return "points at a table of another colocation group";
    const position = key.columns.indexOf(from.column);
    if (position < 0 || key.referencedColumns[position] !== to.column) return "does not join the distribution columns";
  }
  if (holdsDistribution && (key.onDelete === "n" || key.onDelete === "d")) return "sets the distribution column on delete";
  if (holdsDistribution && key.onUpdate !== "a" && key.onUpdate !== "r") return "changes the distribution column on update";
  return null;
}

describe("the schema on Citus (prisma/citus/distribution.ts)", () => {
  it("places every table, and only tables that exist", async () => {
    const existing = await tables();
    expect(existing.filter((table) => !placementOf(table))).toEqual([]);
    expect(Object.keys(PLACEMENTS).filter((table) => !existing.includes(table))).toEqual([]);
  });

  it("has the distribution column in every primary key and unique index of a distributed table", async () => {
    const problems = (await uniqueIndexes())
      .filter((index) => {
        const placement = placed(index.table);
        return placement.kind === "distributed" && !index.columns.includes(placement.column);
      })
      .map((index) => `${index.table}.${index.name} (${index.columns.join(", ")})`);
    expect(problems).toEqual([]);
  });

  it("gives every distributed table a primary key", async () => {
    const rows = await prisma.$queryRaw<{ table: string }[]>`
      SELECT conrelid::regclass::text AS "table" FROM pg_constraint
       WHERE contype = 'p' AND connamespace = 'public'::regnamespace`;
    const withKey = new Set(rows.map((row) => row.table));
    const distributed = Object.entries(PLACEMENTS as Record<string, Placement>).filter(([, p]) => p.kind === "distributed");
    expect(distributed.map(([table]) => table).filter((table) => !withKey.has(table))).toEqual([]);
  });

  it("keeps every foreign key within what Citus accepts", async () => {
    const keys = await foreignKeys();
    expect(keys.length).toBeGreaterThanOrEqual(20);
    const problems = keys.flatMap((key) => {
      const problem = foreignKeyProblem(key);
      return problem ? [`${key.table}.${key.name} -> ${key.referenced}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("gives the tables of one colocation group the same distribution column type", async () => {
    const rows = await prisma.$queryRaw<{ table: string; column: string; type: string }[]>`
      SELECT c.relname::text AS "table", a.attname::text AS "column", format_type(a.atttypid, a.atttypmod) AS type
        FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped`;
    const typeOf = (table: string, column: string) => rows.find((row) => row.table === table && row.column === column)?.type;
    const mismatches = Object.entries(PLACEMENTS as Record<string, Placement>).flatMap(([table, placement]) => {
      if (placement.kind !== "distributed" || !placement.colocateWith) return [];
      const anchor = placed(placement.colocateWith);
      if (anchor.kind !== "distributed") return [`${table}: colocated with ${placement.colocateWith}, which is not distributed`];
      const [own, theirs] = [typeOf(table, placement.column), typeOf(placement.colocateWith, anchor.column)];
      return own && own === theirs ? [] : [`${table}.${placement.column} ${own} vs ${placement.colocateWith}.${anchor.column} ${theirs}`];
    });
    expect(mismatches).toEqual([]);
  });

  it("has no trigger on a distributed table (Citus refuses them unless an unsafe setting is on)", async () => {
    const rows = await prisma.$queryRaw<{ table: string; name: string }[]>`
      SELECT tgrelid::regclass::text AS "table", tgname::text AS name FROM pg_trigger
       WHERE NOT tgisinternal AND tgrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)`;
    expect(rows.filter((row) => placed(row.table).kind === "distributed").map((row) => `${row.table}.${row.name}`)).toEqual([]);
  });

  it("ships the distribution script written from the placements", async () => {
    const shipped = await readFile(join(import.meta.dirname, "../../prisma/citus/distribute.sql"), "utf8");
    expect(shipped, "run `npm run citus:script`").toBe(distributionScript());
  });
});

// The migrated database must match schema.prisma (every model, field, unique and index), and the
// migrator must behave like Prisma Migrate's bookkeeping.
import { createHash } from "node:crypto";
import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate, readMigrations } from "../../scripts/lib/migrate";
import { parsePrismaSchema } from "../prisma-schema";

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe("schema.prisma matches the migrated database", async () => {
  const schema = parsePrismaSchema(await readFile(join(import.meta.dirname, "../../prisma/schema.prisma"), "utf8"));

  it("has parsed the schema", () => {
    expect(schema.models.length).toBeGreaterThanOrEqual(8);
  });

  it("has every model as a table with every scalar field as a column", async () => {
    const columns = await query<{ table_name: string; column_name: string }>(
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const present = new Set(columns.map((c) => `${c.table_name}.${c.column_name}`));
    const missing = schema.models.flatMap((m) => m.columns.map((c) => `${m.table}.${c}`)).filter((c) => !present.has(c));
    expect(missing).toEqual([]);
  });

  it("gives every enum-typed field's column that enum as its type", async () => {
    const columns = await query<{ table_name: string; column_name: string; udt_name: string }>(
      "SELECT table_name, column_name, udt_name FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const typeOf = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c.udt_name]));
    const expected = schema.models.flatMap((m) => m.enumColumns.map((c) => [`${m.table}.${c.column}`, c.enumName]));
    expect(expected).toContainEqual(["organizations.billing_state", "BillingState"]);
    expect(expected.map(([column]) => [column, typeOf.get(column!)])).toEqual(expected);
  });

  it("has every unique constraint and index", async () => {
    const indexes = await query<{ tablename: string; indexdef: string }>(
      "SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    );
    const described = indexes.map((i) => {
      const columns = i.indexdef
        .slice(i.indexdef.indexOf("(") + 1, i.indexdef.lastIndexOf(")"))
        .replaceAll('"', "")
        .split(",")
        .map((c) => c.trim().split(" ")[0]);
      const partial = / WHERE /.test(i.indexdef);
      return { key: `${i.tablename}(${columns.join(",")})`, unique: i.indexdef.startsWith("CREATE UNIQUE"), partial };
    });
    const missing: string[] = [];
    for (const model of schema.models) {
      for (const index of model.indexes) {
        const key = `${model.table}(${index.columns.join(",")})`;
        const found = described.find((d) => d.key === key && !d.partial && (!index.unique || d.unique));
        if (!found) missing.push(`${index.unique ? "unique " : ""}${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("has every enum with its values", async () => {
    const rows = await query<{ typname: string; enumlabel: string }>(
      "SELECT t.typname, e.enumlabel FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid ORDER BY e.enumsortorder",
    );
    for (const [name, values] of Object.entries(schema.enums)) {
      expect(rows.filter((r) => r.typname === name).map((r) => r.enumlabel)).toEqual(values);
    }
  });
});

describe("migrator", () => {
  it("records each migration as Prisma does (checksum = SHA-256 of the file)", async () => {
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    const files = await readMigrations();
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, file] of files.entries()) {
      const sql = await readFile(join(MIGRATIONS_DIR, file.name, "migration.sql"));
      expect(rows[i]!.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(rows[i]!.finished_at).not.toBeNull();
      expect(rows[i]!.applied_steps_count).toBe(1);
    }
  });

  it("is idempotent", async () => {
    expect(await migrate(process.env.DATABASE_URL!)).toEqual([]);
  });

  it("refuses an applied migration whose file changed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "migrations-"));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const first = (await readMigrations(dir))[0]!;
    await writeFile(join(dir, first.name, "migration.sql"), `${first.sql}\n-- edited\n`);
    await expect(migrate(process.env.DATABASE_URL!, dir)).rejects.toThrow(/has changed/);
  });

  it("rolls back a failing migration completely", async () => {
    const dir = await mkdtemp(join(tmpdir(), "migrations-"));
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(dir, "29991231000000_broken"));
    await writeFile(
      join(dir, "29991231000000_broken", "migration.sql"),
      'CREATE TABLE "half_done" (id int);\nSELECT no_such_function();\n',
    );
    await expect(migrate(process.env.DATABASE_URL!, dir)).rejects.toThrow(/29991231000000_broken failed/);
    expect(await query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'")).toEqual([]);
    expect(await query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '29991231000000_broken'`)).toEqual([]);
  });
});

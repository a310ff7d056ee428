// Since migrations can build an index CONCURRENTLY (decision 0039, first used by
// 20261129000000_sessions_expiry_index), a new index on a table that already exists is built that
// way: a plain CREATE INDEX holds a SHARE lock for the whole build, blocking every write to the
// table (on api_keys: issuing, rotating, revoking and authenticate's last-use update). An index on
// a table the same migration creates has nothing to block and stays in its transaction.
import { describe, expect, it } from "vitest";
import { readMigrations } from "./migrate";

/** The first migration written when CONCURRENTLY was possible; older ones are history. */
const FIRST_WITH_CONCURRENT_BUILDS = "20261129000000";

const withoutComments = (sql: string) => sql.replace(/--[^\n]*/g, "");
const unquote = (name: string) => name.replaceAll('"', "").toLowerCase();

/** `CREATE INDEX` (not CONCURRENTLY) statements on tables the migration does not create itself. */
function plainBuildsOnExistingTables(sql: string): string[] {
  const code = withoutComments(sql);
  const created = new Set([...code.matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?("[^"]+"|\w+)/gi)].map((m) => unquote(m[1]!)));
  const builds = code.matchAll(
    /\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+(CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(?:"[^"]+"|\w+)?\s*ON\s+(?:ONLY\s+)?("[^"]+"|\w+)/gi,
  );
  return [...builds].filter((m) => !m[1] && !created.has(unquote(m[2]!))).map((m) => unquote(m[2]!));
}

describe("index builds in migrations", () => {
  it("recognises a plain build on an existing table, and lets a concurrent one or one on a new table pass", () => {
    expect(plainBuildsOnExistingTables(`CREATE INDEX "k_idx" ON "api_keys" ("expires_at") WHERE "revoked_at" IS NULL;`)).toEqual([
      "api_keys",
    ]);
    expect(plainBuildsOnExistingTables(`CREATE INDEX CONCURRENTLY "k_idx" ON "api_keys" ("expires_at");`)).toEqual([]);
    expect(plainBuildsOnExistingTables(`CREATE TABLE "t" (id int);\nCREATE UNIQUE INDEX "t_idx" ON "t" ("id");`)).toEqual([]);
    expect(plainBuildsOnExistingTables(`-- CREATE INDEX "k_idx" ON "api_keys" ("x");`)).toEqual([]);
  });

  it("builds every new index on an existing table CONCURRENTLY", async () => {
    const migrations = (await readMigrations()).filter((m) => m.name >= FIRST_WITH_CONCURRENT_BUILDS);
    expect(migrations.length).toBeGreaterThan(0);
    const plain = migrations.flatMap((m) => plainBuildsOnExistingTables(m.sql).map((table) => `${m.name}: ${table}`));
    expect(plain).toEqual([]);
  });
});

// Since decision 0050, a migration that locks a table already in use (ALTER TABLE, or a new table's
// foreign key, which takes a SHARE ROW EXCLUSIVE lock on the table it references) sets
// `lock_timeout`: waiting for that lock behind a transaction that holds the table, it would make
// every later write to the table (on api_keys: authenticate's last-use update) queue behind it.
// With the timeout it gives up, rolls back whole, and the next migrate tries again.
import { describe, expect, it } from "vitest";
import { isNoTransaction } from "./migrate-no-transaction";
import { readMigrations } from "./migrate";

/** The first migration written under decision 0050's rule. */
const FIRST_WITH_LOCK_TIMEOUT = "20261204000006";

const withoutComments = (sql: string) => sql.replace(/--[^\n]*/g, "");
const unquote = (name: string) => name.replaceAll('"', "").toLowerCase();

/** Tables the migration locks that it does not create itself. */
function lockedExistingTables(sql: string): string[] {
  const code = withoutComments(sql);
  const created = new Set([...code.matchAll(/\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?("[^"]+"|\w+)/gi)].map((m) => unquote(m[1]!)));
  const locked = [...code.matchAll(/\b(?:REFERENCES|ALTER\s+TABLE(?:\s+ONLY)?)\s+("[^"]+"|\w+)/gi)].map((m) => unquote(m[1]!));
  return [...new Set(locked.filter((table) => !created.has(table)))];
}

const setsLockTimeout = (sql: string) => /\bSET\s+(?:LOCAL\s+)?lock_timeout\b/i.test(withoutComments(sql));

describe("migrations that lock tables in use", () => {
  it("recognises a foreign key to an existing table, and not one to a table created alongside", () => {
    expect(lockedExistingTables(`CREATE TABLE "r" ("k" UUID REFERENCES "api_keys" ("id"));`)).toEqual(["api_keys"]);
    expect(lockedExistingTables(`CREATE TABLE "a" (id int PRIMARY KEY);\nCREATE TABLE "b" (a int REFERENCES "a" (id));`)).toEqual([]);
    expect(lockedExistingTables(`ALTER TABLE "users" ADD COLUMN "x" TEXT;`)).toEqual(["users"]);
    expect(setsLockTimeout(`-- SET LOCAL lock_timeout = '10s';\nALTER TABLE "users" ADD COLUMN "x" TEXT;`)).toBe(false);
  });

  it("set lock_timeout", async () => {
    const missing = (await readMigrations())
      .filter((m) => m.name >= FIRST_WITH_LOCK_TIMEOUT && !isNoTransaction(m.sql))
      .filter((m) => lockedExistingTables(m.sql).length > 0 && !setsLockTimeout(m.sql))
      .map((m) => `${m.name}: ${lockedExistingTables(m.sql).join(", ")}`);
    expect(missing).toEqual([]);
  });
});

// Migrations that opt out of the transaction (scripts/lib/migrate-no-transaction.ts): a
// CREATE INDEX CONCURRENTLY that never stalls writes, and an interrupted build that is redone.
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate, readMigrations } from "../../scripts/lib/migrate";
import { concurrentIndexName, NO_TRANSACTION_MARKER } from "../../scripts/lib/migrate-no-transaction";
import { untilWaitingForLock } from "../lock-waits";

const url = () => process.env.DATABASE_URL!;
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url() });
  await client.connect();
  clients.push(client);
  return client;
}

async function one<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = await connect();
  return (await client.query<T>(sql, params)).rows;
}

/** A copy of the real migrations plus `extra` (name → SQL). */
async function migrationsWith(extra: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "migrations-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    await mkdir(join(dir, name));
    await writeFile(join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

const indexState = (name: string) =>
  one<{ valid: boolean }>(`SELECT i.indisvalid AS valid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relname = $1`, [
    name,
  ]);

const rowsOf = (name: string) =>
  one<{ finished_at: Date | null; rolled_back_at: Date | null; applied_steps_count: number; logs: string | null }>(
    `SELECT finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations" WHERE migration_name = $1 ORDER BY started_at, finished_at NULLS FIRST`,
    [name],
  );

async function untilWaiting(pattern: string) {
  await untilWaitingForLock(await connect(), pattern);
}

beforeEach(async () => {
  // A fresh table each time (its indexes go with it).
  await one(`DROP TABLE IF EXISTS busy`);
  await one(`CREATE TABLE busy (id serial PRIMARY KEY, v int NOT NULL)`);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
});

describe("a no-transaction migration", () => {
  it("builds an index CONCURRENTLY while another connection keeps writing to the table", async () => {
    const name = "29990101000001_busy_index";
    const dir = await migrationsWith({
      [name]: `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY "busy_v_idx" ON "busy" ("v");\n`,
    });
    // A writer's open transaction makes the build wait (it waits for every writer that started
    // before it), so the build is certainly in progress while the second writer works.
    const early = await connect();
    await early.query("BEGIN");
    await early.query("INSERT INTO busy (v) VALUES (1)");
    const migrating = migrate(url(), dir);
    await untilWaiting("CREATE INDEX CONCURRENTLY");

    // NOWAIT fails at once if taking the writers' lock would wait: it does not.
    const writer = await connect();
    await writer.query("BEGIN");
    await writer.query("LOCK TABLE busy IN ROW EXCLUSIVE MODE NOWAIT");
    await writer.query("INSERT INTO busy (v) VALUES (2), (3)");
    await writer.query("UPDATE busy SET v = v + 10 WHERE v = 2");
    await writer.query("COMMIT");

    await early.query("COMMIT");
    expect(await migrating).toEqual([name]);
    expect(await indexState("busy_v_idx")).toEqual([{ valid: true }]);
    expect(await one("SELECT v FROM busy ORDER BY v")).toEqual([{ v: 1 }, { v: 3 }, { v: 12 }]);
    const [row] = await rowsOf(name);
    expect(row).toMatchObject({ rolled_back_at: null, applied_steps_count: 1 });
    expect(row!.finished_at).not.toBeNull();
    expect(await migrate(url(), dir)).toEqual([]);
  });

  it("(the same check sees a plain CREATE INDEX in a transactional migration stall writers)", async () => {
    const dir = await migrationsWith({ "29990101000002_busy_plain": `CREATE INDEX "busy_v_plain" ON "busy" ("v");\n` });
    const early = await connect();
    await early.query("BEGIN");
    await early.query("INSERT INTO busy (v) VALUES (1)");
    const migrating = migrate(url(), dir);
    await untilWaiting('CREATE INDEX "busy_v_plain"');
    const writer = await connect();
    await writer.query("BEGIN");
    await expect(writer.query("LOCK TABLE busy IN ROW EXCLUSIVE MODE NOWAIT")).rejects.toThrow(/could not obtain lock/);
    await writer.query("ROLLBACK");
    await early.query("COMMIT");
    await migrating;
  });

  it("redoes a build that failed: the invalid index is dropped, the row retired, the build run again", async () => {
    const name = "29990101000003_busy_unique";
    const dir = await migrationsWith({ [name]: `${NO_TRANSACTION_MARKER}\nCREATE UNIQUE INDEX CONCURRENTLY busy_v_key ON busy (v)\n` });
    await one("INSERT INTO busy (v) VALUES (7), (7)");
    await expect(migrate(url(), dir)).rejects.toThrow(new RegExp(`${name} failed: .*could not create unique index`));
    // Left behind: the row started and never finished, with the reason; no invalid index (a
    // unique one would still refuse duplicates on every write).
    expect(await rowsOf(name)).toEqual([
      expect.objectContaining({ finished_at: null, rolled_back_at: null, logs: expect.stringMatching(/unique/) }),
    ]);
    expect(await indexState("busy_v_key")).toEqual([]);

    await one("DELETE FROM busy WHERE id = (SELECT max(id) FROM busy)");
    expect(await migrate(url(), dir)).toEqual([name]);
    expect(await indexState("busy_v_key")).toEqual([{ valid: true }]);
    const rows = await rowsOf(name);
    expect(rows.map((r) => [r.finished_at !== null, r.rolled_back_at !== null])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it("redoes a build whose process was killed: an INVALID index and a started row", async () => {
    const name = "29990101000004_busy_unique_killed";
    const dir = await migrationsWith({ [name]: `${NO_TRANSACTION_MARKER}\nCREATE UNIQUE INDEX CONCURRENTLY busy_v_key ON busy (v)\n` });
    const file = (await readMigrations(dir)).find((m) => m.name === name)!;
    // What a killed build leaves: an invalid index (made here by a concurrent build that fails)
    // and the row written before the statement, never finished.
    await one("INSERT INTO busy (v) VALUES (5), (5)");
    await expect(one("CREATE UNIQUE INDEX CONCURRENTLY busy_v_key ON busy (v)")).rejects.toThrow(/could not create unique index/);
    expect(await indexState("busy_v_key")).toEqual([{ valid: false }]);
    await one(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES (gen_random_uuid(), $1, $2, now(), 0)`,
      [file.checksum, name],
    );
    await one("DELETE FROM busy WHERE id = (SELECT max(id) FROM busy)");

    expect(await migrate(url(), dir)).toEqual([name]);
    expect(await indexState("busy_v_key")).toEqual([{ valid: true }]);
    expect((await rowsOf(name)).filter((r) => r.rolled_back_at === null && r.finished_at !== null)).toHaveLength(1);
  });

  it("marks a build finished when the process died after the index was complete", async () => {
    const name = "29990101000005_busy_index_done";
    const dir = await migrationsWith({ [name]: `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY busy_v_idx ON busy (v)\n` });
    const file = (await readMigrations(dir)).find((m) => m.name === name)!;
    await one("CREATE INDEX CONCURRENTLY busy_v_idx ON busy (v)");
    await one(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES (gen_random_uuid(), $1, $2, now(), 0)`,
      [file.checksum, name],
    );
    expect(await migrate(url(), dir)).toEqual([name]);
    expect(await indexState("busy_v_idx")).toEqual([{ valid: true }]);
  });

  it("holds exactly one statement, and a concurrent build names its index", async () => {
    const name = "29990101000006_two_statements";
    const dir = await migrationsWith({
      [name]: `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY a_idx ON busy (v);\nCREATE INDEX CONCURRENTLY b_idx ON busy (id, v);\n`,
    });
    await expect(migrate(url(), dir)).rejects.toThrow(/holds exactly one statement/);
    expect(await indexState("a_idx")).toEqual([]);
    expect(() => concurrentIndexName("CREATE INDEX CONCURRENTLY ON busy (v)")).toThrow(/must name its index/);
    expect(concurrentIndexName('CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "Mixed""Case" ON busy (v)')).toBe('Mixed"Case');
    expect(concurrentIndexName("-- CREATE INDEX CONCURRENTLY x ON y\nVACUUM busy")).toBeNull();
  });

  it("still refuses a transactional migration left started but unfinished (by another tool)", async () => {
    const [first] = await readMigrations();
    await one(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES (gen_random_uuid(), $1, $2, now(), 0)`,
      [first!.checksum, first!.name],
    );
    await expect(migrate(url())).rejects.toThrow(/started but never finished/);
    await one(`DELETE FROM "_prisma_migrations" WHERE finished_at IS NULL`);
  });
});

describe("the real no-transaction migration", () => {
  it("built the sessions' expiry index, valid", async () => {
    expect(await indexState("sessions_expires_at_idx")).toEqual([{ valid: true }]);
  });
});

// The hot-standby harness (scripts/lib/embedded-standby.ts) on real servers: a primary of this
// file's own (embedded, migrated, pg_stat_statements loaded) and a streaming replica of it made
// with pg_backup_start/pg_backup_stop and a file copy. What the replica-read tests rely on: the
// standby serves the primary's committed rows, refuses writes, shows nothing new while replay is
// paused, is unreachable once stopped and catches up after a restart; queriesServed tells which
// server answered a statement.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmbeddedDatabase } from "../../scripts/lib/embedded-postgres.ts";
import { queriesServed, startCountingPrimary, startEmbeddedStandby, type EmbeddedStandby } from "../../scripts/lib/embedded-standby.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

const root = await mkdtemp(join(tmpdir(), "keyledger-standby-test-"));
const primaryDataDir = join(root, "primary");
const standbyDataDir = join(root, "standby");
let primary: EmbeddedDatabase;
let standby: EmbeddedStandby;

const query = queryOnce;

/** The first column of the only row. */
async function value(url: string, sql: string, params: unknown[] = []): Promise<unknown> {
  const { rows } = await query(url, sql, params);
  return Object.values(rows[0] ?? {})[0];
}

const notesOn = async (url: string) =>
  (await query<{ body: string }>(url, "SELECT body FROM standby_notes ORDER BY id")).rows.map((r) => r.body);
const note = (body: string) => query(primary.url, "INSERT INTO standby_notes (body) VALUES ($1)", [body]);

beforeAll(async () => {
  primary = await startCountingPrimary(primaryDataDir, "keyledger");
  await query(primary.url, "CREATE TABLE standby_notes (id serial PRIMARY KEY, body text NOT NULL)");
  await note("before the backup");
  standby = await startEmbeddedStandby({
    primaryUrl: primary.url,
    primaryDataDir,
    dataDir: standbyDataDir,
    port: await freePort(),
    database: "keyledger",
  });
}, 120_000);

afterAll(async () => {
  await standby?.destroy();
  await primary?.stop();
  await rm(root, { recursive: true, force: true });
}, 60_000);

describe("an embedded hot standby", () => {
  it("is in recovery and serves the base backup and the primary's later commits", async () => {
    expect(await value(standby.url, "SELECT pg_is_in_recovery() AS r")).toBe(true);
    expect(await value(primary.url, "SELECT pg_is_in_recovery() AS r")).toBe(false);
    // The migrated schema came with the copy.
    expect(await value(standby.url, "SELECT count(*)::int AS n FROM _prisma_migrations")).toBeGreaterThan(0);
    await note("after the backup");
    await standby.caughtUp();
    expect(await notesOn(standby.url)).toEqual(["before the backup", "after the backup"]);
  });

  it("refuses writes as a read-only server (SQLSTATE 25006)", async () => {
    const write = query(standby.url, "INSERT INTO standby_notes (body) VALUES ('on the standby')");
    await expect(write).rejects.toMatchObject({
      code: "25006",
      message: expect.stringMatching(/cannot execute INSERT in a read-only transaction/),
    });
  });

  it("shows nothing new while replay is paused, even once the WAL has arrived, and catches up when resumed", async () => {
    await standby.pauseReplay();
    await note("while paused");
    const lsn = await value(primary.url, "SELECT pg_current_wal_lsn()::text");
    // Received but not applied: what hides the row is the pause, not a slow network.
    await expect
      .poll(async () => await value(standby.url, "SELECT pg_last_wal_receive_lsn() >= $1::pg_lsn AS got", [lsn]), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(await notesOn(standby.url)).not.toContain("while paused");
    await expect(standby.caughtUp()).rejects.toThrow(/replay is paused/);
    await standby.resumeReplay();
    await standby.caughtUp();
    expect(await notesOn(standby.url)).toContain("while paused");
  });

  it("counts with queriesServed which server ran a statement", async () => {
    const probe = /SELECT body AS served_by_probe FROM standby_notes/;
    const sql = "SELECT body AS served_by_probe FROM standby_notes WHERE id = $1";
    const before = { primary: await queriesServed(primary.url, probe), standby: await queriesServed(standby.url, probe) };
    for (let i = 1; i <= 3; i++) await query(standby.url, sql, [i]);
    await query(primary.url, sql, [1]);
    expect(await queriesServed(standby.url, probe)).toBe(before.standby + 3);
    expect(await queriesServed(primary.url, probe)).toBe(before.primary + 1);
  });

  // What an audit export on a replica needs (docs/replica-setup.md): without hot_standby_feedback
  // the vacuum removes rows the snapshot still sees, replaying that conflicts with it, replay stalls
  // for max_standby_streaming_delay (30 s) and then the read is cancelled.
  it("keeps a long REPEATABLE READ snapshot on the standby through a vacuum on the primary (hot_standby_feedback)", async () => {
    await query(primary.url, "CREATE TABLE standby_vacuumed AS SELECT g AS id FROM generate_series(1, 1000) AS g");
    await standby.caughtUp();
    const reader = new pg.Client({ connectionString: standby.url });
    reader.on("error", () => {});
    await reader.connect();
    const count = async () => (await reader.query<{ n: number }>("SELECT count(*)::int AS n FROM standby_vacuumed")).rows[0]?.n;
    try {
      await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      expect(await count()).toBe(1000);
      // The standby tells the primary its oldest snapshot once a second: wait until the primary's
      // slot holds it, or a vacuum run before that may still remove what the reader sees.
      const readerXmin = Number(
        (await reader.query<{ x: string }>("SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x")).rows[0]!.x,
      );
      for (let tries = 0; ; tries++) {
        const held = (await query<{ x: string | null }>(primary.url, "SELECT min(xmin::text::bigint)::text AS x FROM pg_replication_slots"))
          .rows[0]?.x;
        if (held !== null && held !== undefined && Number(held) <= readerXmin) break;
        if (tries > 200) throw new Error(`the primary never held the standby's snapshot (slot xmin ${held}, reader ${readerXmin})`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await query(primary.url, "DELETE FROM standby_vacuumed");
      // TRUNCATE false: cutting the table's empty end pages takes an ACCESS EXCLUSIVE lock, which
      // conflicts on replay with any reader whatever the feedback (docs/replica-setup.md).
      await query(primary.url, "VACUUM (TRUNCATE false) standby_vacuumed");
      await standby.caughtUp();
      expect(await count()).toBe(1000);
      await reader.query("COMMIT");
      expect(await count()).toBe(0);
    } finally {
      await reader.end();
    }
  });

  it("refuses connections once stopped, and after start() has what the primary wrote meanwhile", async () => {
    await standby.stop();
    await standby.stop();
    await expect(query(standby.url, "SELECT 1")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await note("while stopped");
    // Without the slot the primary would recycle the WAL the standby has not received: two segment
    // switches with a checkpoint after each leave no segment from before behind.
    for (let i = 0; i < 2; i++) {
      await query(primary.url, "SELECT pg_switch_wal()");
      await query(primary.url, "CHECKPOINT");
    }
    await standby.start();
    await standby.caughtUp();
    expect(await notesOn(standby.url)).toContain("while stopped");
  });

  it("refuses a data directory that is not empty, before touching the primary", async () => {
    const second = startEmbeddedStandby({
      primaryUrl: primary.url,
      primaryDataDir,
      dataDir: standbyDataDir,
      port: await freePort(),
      database: "keyledger",
    });
    await expect(second).rejects.toThrow(/is not empty/);
    expect(await value(primary.url, "SELECT count(*)::int AS n FROM pg_replication_slots")).toBe(1);
    expect(await notesOn(standby.url)).toContain("while stopped");
  });

  it("destroy() stops it, drops its replication slot on the primary and removes its data directory", async () => {
    expect(await value(primary.url, "SELECT count(*)::int AS n FROM pg_replication_slots")).toBe(1);
    await standby.destroy();
    await expect(query(standby.url, "SELECT 1")).rejects.toMatchObject({ code: "ECONNREFUSED" });
    expect(await value(primary.url, "SELECT count(*)::int AS n FROM pg_replication_slots")).toBe(0);
    await expect(readdir(standbyDataDir)).rejects.toMatchObject({ code: "ENOENT" });
  });
});

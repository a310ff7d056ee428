// Where the replica (DATABASE_READ_URL) stands: whether it answers as a hot standby, how much of the
// primary's log it has replayed, and how many seconds behind that is. Checked on demand, by the
// reads that want it, at most once a second (no timer: an idle server asks nothing, and nothing
// outlives the pools); docs/decisions/0045-replica-reads.md.
//
// The lag is measured against the primary, not the replica's clock: each check first notes the
// primary's current WAL position with the time, then asks the replica how far it has replayed.
// Every noted position the replica has replayed is dropped; the oldest one it has not tells how far
// behind it is at least. `now() - pg_last_xact_replay_timestamp()` would not do: on a primary with
// nothing to write it grows forever while the replica is perfectly current.
import type pg from "pg";
import { pool } from "~/db.server";
import { observeReplica } from "~/metrics/replica-metrics.server";
import { logger } from "./logger.server";

export type ReplicaCondition = "up" | "down" | "not_standby";

export interface ReplicaStatus {
  condition: ReplicaCondition;
  /** How far the replica has replayed the primary's log (0 when it is not up). */
  replayLsn: bigint;
  /** At least this far behind the primary, in seconds. */
  lagSeconds: number;
  /** When the check was made (Date.now()); 0 before the first. */
  checkedAt: number;
}

/** A check this recent answers the next read; an older one is made again first. */
const CHECK_EVERY_MS = 1_000;
/** A check older than this is not trusted: the next read waits for a new one. */
const STALE_AFTER_MS = 5_000;
/** How long a read waits for a check before it goes to the primary rather than wait longer. */
const CHECK_WAIT_MS = 1_000;
/** How old the last replayed transaction counts as when the replica has replayed none since it started. */
const UNKNOWN_REPLAY_AGE_SECONDS = 86_400;
/** A check's query that takes longer fails (the replica counts as down until the next check). */
const QUERY_TIMEOUT_MS = 5_000;
/** Positions noted while the replica is behind: one a check, so an hour of checks at most. */
const MAX_NOTED_POSITIONS = 3_600;

/** "16/B374D848" (pg_lsn's text) as a number, or null when it is not one. */
export function parseLsn(text: unknown): bigint | null {
  const match = typeof text === "string" ? /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text) : null;
  return match ? (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`) : null;
}

interface Tracker {
  /** The replica pool checked: pools made again (after disconnectDb) start a tracker of their own. */
  replica: pg.Pool;
  status: ReplicaStatus;
  /** The primary's positions not yet replayed, oldest first, with when they were noted. */
  noted: { at: number; lsn: bigint }[];
  checking: Promise<ReplicaStatus> | null;
  /** Which server the check in progress waits for: a slow primary does not make the replica down. */
  waitingFor: "primary" | "replica" | null;
  /** Whether reads skip the replica for lagging (./read-routing.server.ts keeps it, with hysteresis). */
  lagging: boolean;
}

const shared = globalThis as typeof globalThis & { __replicaTracker?: Tracker };

function tracker(replica: pg.Pool): Tracker {
  if (shared.__replicaTracker?.replica !== replica)
    shared.__replicaTracker = {
      replica,
      status: { condition: "down", replayLsn: 0n, lagSeconds: 0, checkedAt: 0 },
      noted: [],
      checking: null,
      waitingFor: null,
      lagging: false,
    };
  return shared.__replicaTracker;
}

/**
 * The replica's status. A check over a second old is made again in the background while this read
 * goes by the last one, so no read waits for it; only a read with no check younger than
 * STALE_AFTER_MS (the first, or after a quiet spell) waits for one, up to CHECK_WAIT_MS.
 */
export async function replicaStatus(replica: pg.Pool, maxLagSeconds: number): Promise<ReplicaStatus> {
  const current = tracker(replica);
  const age = Date.now() - current.status.checkedAt;
  if (age < CHECK_EVERY_MS) return current.status;
  const checking = (current.checking ??= check(replica, current).finally(() => (current.checking = null)));
  // Never trusted for longer than half the lag bound, so the time since the check (which the lag a
  // read goes by includes) cannot by itself keep a current replica skipped.
  const staleAfter = Math.max(CHECK_EVERY_MS, Math.min(STALE_AFTER_MS, maxLagSeconds * 500));
  // A replica found down is checked in the background too, however long ago: no read waits on it.
  if (age < staleAfter || (current.status.condition === "down" && current.status.checkedAt !== 0)) return current.status;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ReplicaStatus>((resolve) => {
    timer = setTimeout(() => {
      // A replica too slow to answer is down for now, for the reads behind this one too (said once).
      // A slow primary is not the replica's fault: this read goes to it, and the state stays.
      if (current.waitingFor === "replica") markDown(current, `no answer to the check in ${CHECK_WAIT_MS} ms`);
      resolve({ ...current.status, condition: "down" });
    }, CHECK_WAIT_MS);
  });
  try {
    return await Promise.race([checking, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function check(replica: pg.Pool, current: Tracker): Promise<ReplicaStatus> {
  const at = Date.now();
  current.waitingFor = "primary";
  try {
    const primaryLsn = parseLsn(await primaryPosition());
    if (primaryLsn !== null) note(current, at, primaryLsn);
  } catch {
    // The primary does not answer: its reads fail on their own; the replica is still checked.
  }
  let status: ReplicaStatus;
  current.waitingFor = "replica";
  try {
    const { rows } = await within(replica.query<{ standby: boolean; lsn: string | null; replayAge: number | null }>(REPLICA_CHECK));
    const replayLsn = parseLsn(rows[0]?.lsn);
    if (!rows[0]?.standby || replayLsn === null) status = { condition: "not_standby", replayLsn: 0n, lagSeconds: 0, checkedAt: Date.now() };
    else {
      current.noted = current.noted.filter((position) => position.lsn > replayLsn);
      const oldest = current.noted[0];
      let lagSeconds = oldest ? (Date.now() - oldest.at) / 1000 : 0;
      // Behind, with nothing noted before this check (the first, or after a quiet spell): how long
      // is unknown. The age of the last transaction it replayed is an upper bound: the position is
      // dated back by it, so this check and the next ones measure from there rather than trust a
      // replica that stalled while nobody was looking. (No transaction replayed yet: a day.)
      if (oldest && oldest.at === at) {
        const replayAge = rows[0].replayAge ?? UNKNOWN_REPLAY_AGE_SECONDS;
        oldest.at = at - Math.max(0, replayAge) * 1000;
        lagSeconds = (Date.now() - oldest.at) / 1000;
      }
      status = { condition: "up", replayLsn, lagSeconds, checkedAt: Date.now() };
    }
  } catch (error) {
    markDown(current, error);
    return current.status;
  } finally {
    current.waitingFor = null;
  }
  if (status.condition !== current.status.condition || current.status.checkedAt === 0) {
    if (status.condition === "up") logger.info({ lagSeconds: status.lagSeconds }, "replica up; audit reads may go to it");
    else logger.warn("DATABASE_READ_URL is not a hot standby (pg_is_in_recovery() is false); its reads go to the primary");
  }
  current.status = status;
  observeReplica(status.condition === "up", status.lagSeconds);
  return status;
}

/** The replica's side of a check: in recovery, how far replayed, and how old the last replayed
 * transaction is (on the primary's clock, as the WAL carries it). */
const REPLICA_CHECK = `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS lsn,
  extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 AS "replayAge"`;

/** Down from now until a check finds it up; said once when it goes down. */
function markDown(current: Tracker, cause: unknown): void {
  if (current.status.condition !== "down" || current.status.checkedAt === 0)
    logger.warn(
      { reason: cause instanceof Error ? cause.message : String(cause) },
      "replica unreachable or failing; its reads go to the primary",
    );
  current.status = { condition: "down", replayLsn: 0n, lagSeconds: 0, checkedAt: Date.now() };
  observeReplica(false, 0);
}

/** The primary's current WAL position as pg_lsn's text (undefined if it has none), asked with
 * QUERY_TIMEOUT_MS: what a check measures the replica against, and what a read-your-writes cookie
 * holds (./read-routing.server.ts). */
export async function primaryPosition(): Promise<string | undefined> {
  const { rows } = await within(pool().query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn"));
  return rows[0]?.lsn;
}

/** `query`, or a failure once it has taken QUERY_TIMEOUT_MS (so a hung server cannot hold the check). */
function within<T>(query: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${QUERY_TIMEOUT_MS} ms`)), QUERY_TIMEOUT_MS);
  });
  return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
}

function note(current: Tracker, at: number, lsn: bigint): void {
  const last = current.noted.at(-1);
  if (last && last.lsn >= lsn) return;
  current.noted.push({ at, lsn });
  // Keep the oldest (it measures the lag) and drop from the middle.
  if (current.noted.length > MAX_NOTED_POSITIONS) current.noted.splice(1, 1);
}

/** A read on the replica failed for the replica's sake: down until the next check finds it up. */
export function noteReplicaFailed(replica: pg.Pool, error: unknown): void {
  markDown(tracker(replica), error);
}

/** The replica's lag hysteresis, kept with its checks (./read-routing.server.ts decides it). */
export function lagState(replica: pg.Pool): { lagging: boolean } {
  return tracker(replica);
}

/** For the tests: forget every check (the next read checks again). */
export function forgetReplicaStatus(): void {
  shared.__replicaTracker = undefined;
}

// When digests are made (docs/decisions/0061-audit-digests.md). Every process that runs the job
// worker ticks: one statement finds the organizations due for a digest and queues one job per
// organization (job key `audit-digest:<id>`: any number of instances queue it once; the writer is
// safe twice over anyway, seal.server.ts). A job left locked by a killed process does not count
// (sealing-lock.server.ts): the organization is queued again at the next tick. An audited change does no extra work in its own
// transaction: no trigger, no job per write.
//
// Due: an event lies after the chain tip's `last` below the horizon (the oldest transaction still
// in flight), and either the organization has no digest yet (the first one is made at once: a fresh
// demo, an upgraded deployment) or its newest digest closed in an earlier interval than now
// (intervals are AUDIT_DIGEST_INTERVAL seconds since the epoch: with 3600, just after each hour).
import type { Logger } from "pino";
import { pool } from "~/db.server";
import { startPeriodicTicks } from "~/jobs/periodic-ticks.server";
import { sealingLockHeldSql } from "./sealing-lock.server";

export const SEAL_DIGEST_TASK = "audit-digest";

/** The job key of an organization's digest: `audit-digest:<organizationId>`. */
export const digestJobKey = (organizationId: string) => `audit-digest:${organizationId}`;

/** A tick at least this often (and at least once per interval), so a digest closes within a minute of its interval's end. */
const MAX_TICK_MS = 60_000;
/** The first tick soon after start: an organization never sealed gets its first digest at once. */
const FIRST_TICK_MS = 1_000;
/** Organizations queued per tick at most (the next tick takes the rest). */
const QUEUE_LIMIT = 1_000;

/**
 * The schedule's statement: scans every organization's newest digest (tests/statements/allowed-scatter.ts).
 * $1: the interval in seconds. A job already waiting (or running in a live process) for an organization is left alone.
 */
const DUE_SQL = `
  SELECT count(graphile_worker.add_job(
      '${SEAL_DIGEST_TASK}',
      json_build_object('organizationId', due.id),
      job_key => 'audit-digest:' || due.id::text,
      max_attempts => 5))::int AS queued
  FROM (
    SELECT o.id
    FROM organizations o
    LEFT JOIN LATERAL (
      SELECT d.period_end, d.last_transaction_id, d.last_event_id FROM audit_digests d
      WHERE d.organization_id = o.id ORDER BY d.sequence DESC LIMIT 1
    ) tip ON true
    WHERE (tip.period_end IS NULL OR floor(extract(epoch FROM tip.period_end) / $1) < floor(extract(epoch FROM now()) / $1))
      AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j
                      WHERE j.key = 'audit-digest:' || o.id::text AND j.attempts < j.max_attempts
                        -- waiting, or running in a live process (sealing-lock.server.ts)
                        AND (j.locked_at IS NULL OR ${sealingLockHeldSql("o.id::text")}))
      AND EXISTS (
        SELECT 1 FROM audit_events e
        WHERE e.organization_id = o.id
          AND (COALESCE(e.transaction_id, '0'::xid8), e.id)
              > (COALESCE(tip.last_transaction_id, '0'::xid8), COALESCE(tip.last_event_id, '00000000-0000-0000-0000-000000000000'::uuid))
          AND COALESCE(e.transaction_id, '0'::xid8) < (SELECT pg_snapshot_xmin(pg_current_snapshot())))
    LIMIT ${QUEUE_LIMIT}
  ) due`;

/** One tick: queues the due organizations' digest jobs; how many. */
export async function queueDueDigests(intervalSeconds: number): Promise<number> {
  const { rows } = await pool().query<{ queued: number }>(DUE_SQL, [intervalSeconds]);
  return rows[0]?.queued ?? 0;
}

/**
 * How many organizations' newest digest has a horizon at or past the next transaction id this
 * database will give out: after a logical restore (pg_dump into a new server) transaction ids start
 * again low, every new event sorts inside the old digests' ranges and would verify as inserted, and
 * nothing new is sealed until an operator repairs it (README, Backups). A physical restore keeps them.
 */
export async function digestsAheadOfDatabase(): Promise<number> {
  const { rows } = await pool().query<{ ahead: number }>(
    `SELECT count(*)::int AS ahead FROM organizations o
     WHERE (SELECT d.horizon FROM audit_digests d WHERE d.organization_id = o.id ORDER BY d.sequence DESC LIMIT 1)
           >= pg_snapshot_xmax(pg_current_snapshot())`,
  );
  return rows[0]?.ahead ?? 0;
}

/** The tick's period for an interval: at least once per interval, at most a minute apart. */
export function tickMs(intervalSeconds: number): number {
  return Math.min(intervalSeconds * 1000, MAX_TICK_MS);
}

export interface DigestScheduleOptions {
  intervalSeconds: number;
  /** The tick's work (tests pass their own). */
  queue?: () => Promise<number>;
  /** The restore check (tests pass their own). */
  aheadOfDatabase?: () => Promise<number>;
  firstTickMs?: number;
}

/**
 * Starts the schedule; the returned function stops it (and waits for a tick in progress). A failed
 * tick is logged (a database outage as a warning) and the next one runs as usual; a draining
 * process queues nothing.
 */
export function startDigestSchedule(logger: Pick<Logger, "warn" | "error">, options: DigestScheduleOptions): () => Promise<void> {
  const { intervalSeconds } = options;
  return startPeriodicTicks(logger, {
    work: options.queue ?? (() => queueDueDigests(intervalSeconds)),
    aheadOfDatabase: options.aheadOfDatabase ?? digestsAheadOfDatabase,
    aheadError: (ahead) => [
      { organizations: ahead },
      "audit digests' horizons are ahead of this database's transaction ids (restored from a logical dump?): new events are not sealed and would verify as inserted until the transaction ids are moved past them (README, Backups)",
    ],
    failure: "audit digest schedule tick failed",
    firstDelayMs: Math.min(options.firstTickMs ?? FIRST_TICK_MS, tickMs(intervalSeconds)),
    nextDelayMs: () => tickMs(intervalSeconds),
  });
}

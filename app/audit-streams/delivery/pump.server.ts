// The pump: once a second, in every process that runs the job worker, one statement finds the
// streams with something to deliver and queues their delivery jobs (docs/decisions/0053). An
// audited change therefore does no extra work in its own transaction: no job per write, no trigger.
// A stream is due when it is not paused, its retry pause (next_attempt_at) has passed, its
// organization's plan has auditStreaming and its billing does not pause paid features, no run holds
// its lease and no job of it waits, and an event lies after its cursor below the horizon. The job
// key makes this safe with any number of instances: a second add only replaces a waiting job. A
// job left locked by a process that died does not count: its lease ends and the stream is due again.
import type { Logger } from "pino";
import { billingBlocksPaidFeatures } from "~/access/billing-pause";
import { pool } from "~/db.server";
import { BillingState } from "~/generated/prisma/enums";
import { startPeriodicTicks } from "~/jobs/periodic-ticks.server";
import { PLAN_IDS, planHas } from "~/plans/catalog";
import { addDeliveryJobSql } from "./delivery-jobs.server";

export const PUMP_INTERVAL_MS = 1_000;

/** Streams queued per tick at most (the next tick takes the rest). */
const PUMP_LIMIT = 1_000;

const streamingPlans = () => PLAN_IDS.filter((plan) => planHas(plan, "auditStreaming"));
const pausingStates = () => Object.values(BillingState).filter((state) => billingBlocksPaidFeatures(state));

/** The pump's statement: scans the streams of every organization (tests/statements/allowed-scatter.ts). */
const PUMP_SQL = `
  SELECT count(${addDeliveryJobSql("due.organization_id", "due.id")})::int AS queued
  FROM (
    SELECT s.organization_id, s.id
    FROM audit_streams s JOIN organizations o ON o.id = s.organization_id
    WHERE NOT s.paused
      AND (s.next_attempt_at IS NULL OR s.next_attempt_at <= now())
      AND o.plan_id = ANY($1::text[]) AND NOT (o.billing_state::text = ANY($2::text[]))
      AND (s.delivery_lease_until IS NULL OR s.delivery_lease_until < now())
      AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j
                      WHERE j.key = 'audit-stream:' || s.id::text AND j.locked_at IS NULL AND j.attempts < j.max_attempts)
      AND EXISTS (
        SELECT 1 FROM audit_events e
        WHERE e.organization_id = s.organization_id
          AND (COALESCE(e.transaction_id, '0'::xid8), e.id) > (s.cursor_transaction_id, s.cursor_event_id)
          AND COALESCE(e.transaction_id, '0'::xid8) < (SELECT pg_snapshot_xmin(pg_current_snapshot())))
    LIMIT ${PUMP_LIMIT}
  ) due`;

/**
 * How many streams' cursors lie at or past the next transaction id this database will give out.
 * That happens after a logical restore (pg_dump into a new server): transaction ids are not carried
 * over, so every new event sorts behind those cursors and nothing is delivered until an operator
 * repairs the stream order (README, Backups). A physical restore keeps the ids.
 */
export async function streamsAheadOfDatabase(): Promise<number> {
  const { rows } = await pool().query<{ ahead: number }>(
    `SELECT count(*)::int AS ahead FROM audit_streams WHERE cursor_transaction_id >= pg_snapshot_xmax(pg_current_snapshot())`,
  );
  return rows[0]?.ahead ?? 0;
}

/** One tick: queues the due streams' jobs; how many. */
export async function pumpOnce(): Promise<number> {
  const { rows } = await pool().query<{ queued: number }>(PUMP_SQL, [streamingPlans(), pausingStates()]);
  return rows[0]?.queued ?? 0;
}

/**
 * Starts the pump; the returned function stops it (and waits for a tick in progress). A failed
 * tick is logged (a database outage as a warning) and the next one runs as usual: the pump never
 * ends the process. `pump` is the tick's work and `aheadOfDatabase` the restore check (tests pass their own).
 */
export function startPump(
  logger: Pick<Logger, "warn" | "error">,
  intervalMs = PUMP_INTERVAL_MS,
  pump: () => Promise<number> = pumpOnce,
  aheadOfDatabase: () => Promise<number> = streamsAheadOfDatabase,
): () => Promise<void> {
  return startPeriodicTicks(logger, {
    work: pump,
    aheadOfDatabase,
    aheadError: (ahead) => [
      { streams: ahead },
      "audit streams' cursors are ahead of this database's transaction ids (restored from a logical dump?): they deliver nothing until the stream order is repaired (README, Backups)",
    ],
    failure: "audit stream pump tick failed",
    firstDelayMs: intervalMs,
    nextDelayMs: () => intervalMs,
  });
}

// The rollups after the upgrade that moved them from triggers to the recorder (decision 0049).
// While a release rolls out, instances of the release before it keep serving beside the new schema:
// they record events as they always did, a plain INSERT, and the triggers that kept the rollups for
// them are gone. Their events would be missing from the activity chart's counts, their actors from
// the actor filter and their users from the export's names. So for a while after that migration,
// every instance's worker runs this catch-up every 15 minutes (one run at a time across instances):
// the actors and users those events name are added, and each day count they touch is counted again
// from the events. Both are exact, so a run counts nothing twice, and running it again (or while
// new instances record) is harmless.
//
// Each day count is recounted in a transaction of its own that locks the row first: a recorder
// that counted up that row before has committed (its event is in the count), one that comes after
// waits and adds its own event to the exact count, so no count is lost and two locks are never held.
import { parseCronItems, type ParsedCronItem, type TaskList } from "graphile-worker";
import { pool, prisma } from "~/db.server";
import { noteNamedInEvents, type EventWindow } from "./rollups.server";

/** The migration that dropped the triggers: when it ran starts the window. */
export const TRIGGERS_DROPPED_BY = "20261203000000_app_role_append_only";
/** How long after it instances of the previous release may still be writing: a rollout finishes well within. */
export const ROLLOUT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A transaction of the old release that began before the migration may insert after it (it waited
 * for the migration's lock): its created_at is its start, so the window opens this much earlier. */
const EARLY_START_MS = 60 * 60 * 1000;
/** The catch-up goes on this long after the window closes, so a run sees every write in it. */
const SETTLE_MS = 2 * 60 * 60 * 1000;

export const ROLLUP_CATCH_UP_TASK = "audit-rollups-catch-up";

export type CatchUpWindow = EventWindow;

/** The events to catch up on at `now`, or null: before the migration, or long after it. */
export async function rollupCatchUpWindow(now = new Date()): Promise<CatchUpWindow | null> {
  const [row] = await prisma.$queryRaw<{ at: Date | null }[]>`
    SELECT min(started_at) AS at FROM "_prisma_migrations"
     WHERE migration_name = ${TRIGGERS_DROPPED_BY} AND finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  if (!row?.at) return null;
  const closes = row.at.getTime() + ROLLOUT_WINDOW_MS;
  if (now.getTime() > closes + SETTLE_MS) return null;
  return { from: new Date(row.at.getTime() - EARLY_START_MS), to: new Date(Math.min(now.getTime(), closes)) };
}

/** Organizations per batch: each batch's reads go through the log's (organization_id, created_at)
 * index, organization by organization, never through the whole table (and on Citus reach only
 * those organizations' shards). */
const BATCH = 500;

/** Adds what the window's events name to the actors and users, and recounts the days they fall on. */
export async function catchUpRollups(window: CatchUpWindow): Promise<{ days: number }> {
  let days = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const batch = await prisma.$queryRaw<{ id: string }[]>`
      SELECT id::text FROM organizations WHERE id > ${after}::uuid ORDER BY id LIMIT ${BATCH}`;
    if (batch.length === 0) return { days };
    days += await catchUpOrganizations(
      batch.map((row) => row.id),
      window,
    );
    after = batch.at(-1)!.id;
  }
}

async function catchUpOrganizations(organizations: string[], window: CatchUpWindow): Promise<number> {
  await noteNamedInEvents(pool(), organizations, window);
  const { from, to } = window;
  const keys = await prisma.$queryRaw<{ organizationId: string; day: string; action: string }[]>`
    SELECT DISTINCT organization_id::text AS "organizationId", to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, action
      FROM audit_events WHERE organization_id = ANY(${organizations}::uuid[]) AND created_at >= ${from} AND created_at <= ${to}
     ORDER BY 1, 2, 3`;
  for (const key of keys) await recountDay(key);
  return keys.length;
}

async function recountDay({ organizationId, day, action }: { organizationId: string; day: string; action: string }) {
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`
      INSERT INTO audit_event_days (organization_id, day, action, events) VALUES (${organizationId}::uuid, ${day}::date, ${action}, 0)
      ON CONFLICT DO NOTHING`;
    await tx.$queryRaw`
      SELECT 1 FROM audit_event_days WHERE organization_id = ${organizationId}::uuid AND day = ${day}::date AND action = ${action} FOR UPDATE`;
    // A statement of its own, so its snapshot is taken once the row is ours.
    await tx.$executeRaw`
      UPDATE audit_event_days SET events = (
        SELECT count(*) FROM audit_events
         WHERE organization_id = ${organizationId}::uuid AND action = ${action}
           AND created_at >= (${day}::date)::timestamp AT TIME ZONE 'UTC'
           AND created_at < (${day}::date + 1)::timestamp AT TIME ZONE 'UTC')
       WHERE organization_id = ${organizationId}::uuid AND day = ${day}::date AND action = ${action}`;
  });
}

/** The worker's task: catches up on the window, if there still is one. */
export const auditTasks: TaskList = {
  [ROLLUP_CATCH_UP_TASK]: async () => {
    const window = await rollupCatchUpWindow();
    if (window) await catchUpRollups(window);
  },
};

const CATCH_UP_CRON = parseCronItems([
  {
    task: ROLLUP_CATCH_UP_TASK,
    identifier: ROLLUP_CATCH_UP_TASK,
    match: "*/15 * * * *",
    options: { backfillPeriod: 0, maxAttempts: 3, jobKey: ROLLUP_CATCH_UP_TASK, jobKeyMode: "replace" },
  },
]);

/** The audit log's schedule for a worker starting now: the catch-up while its window is open (an
 * instance started within it runs the item until it stops; after the window a run does nothing). */
export async function auditCronItems(now = new Date()): Promise<ParsedCronItem[]> {
  return (await rollupCatchUpWindow(now)) ? CATCH_UP_CRON : [];
}

// The expiry reminders' planner (docs/decisions/0058-expiry-reminders.md). The job queue's cron
// runs it every 15 minutes; graphile-worker fires each scheduled time once across every instance,
// and even two planners at once (a run that overlaps the next, or one started by hand) plan each
// reminder once: a reminder is a row keyed by (key, kind, expiry), inserted with ON CONFLICT DO
// NOTHING, and only the statement that inserted it queues its mails (one job per owner or admin),
// in the same statement, so the plan and its mails commit together or not at all. The sender
// (reminder-mail.server.tsx) checks everything again when the mail goes out.
import { parseCronItems } from "graphile-worker";
import { prisma } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import { REMINDER_KINDS } from "./reminder-kinds";

export const PLAN_REMINDERS_TASK = "api-key-expiry-reminders";
export const SEND_REMINDER_TASK = "api-key-expiry-reminder-mail";
/** A mail server that refuses for a while: about an hour of retries (e^attempt seconds). */
export const REMINDER_MAIL_MAX_ATTEMPTS = 8;

/** Every 15 minutes. A run missed while no instance was up is not made up: the next run plans
 * everything that became due meanwhile (the windows are hours wide, not instants). */
export const REMINDER_CRON = parseCronItems([
  {
    task: PLAN_REMINDERS_TASK,
    identifier: PLAN_REMINDERS_TASK,
    match: "*/15 * * * *",
    options: { backfillPeriod: 0, maxAttempts: 3, jobKey: PLAN_REMINDERS_TASK, jobKeyMode: "replace" },
  },
]);

const kindRows = Prisma.join(
  Object.entries(REMINDER_KINDS).map(
    ([kind, { before, until }]) =>
      Prisma.sql`(${kind}::text, ${before}::bigint * interval '1 millisecond', ${until}::bigint * interval '1 millisecond')`,
  ),
);
const widest = Math.max(...Object.values(REMINDER_KINDS).map((kind) => kind.before));

export interface PlannedReminders {
  /** Mails queued, one per recipient of each reminder planned by this run. */
  mails: number;
}

/**
 * Plans the reminders that are due at `now`: unrevoked keys whose expiry is inside a kind's
 * window, which existed when that window opened (a key issued with 3 days left gets the 1-day
 * mail, not the 7-day one; one issued with hours left gets none: its issuer just chose that), and
 * not yet planned for this expiry. Owners and admins who are not deleted get a mail job each.
 */
export async function planExpiryReminders(now = new Date()): Promise<PlannedReminders> {
  const [row] = await prisma.$queryRaw<{ mails: number }[]>`
    WITH kinds (kind, opens, closes) AS (VALUES ${kindRows}),
    due AS (
      SELECT k.organization_id, k.id AS api_key_id, kinds.kind, k.expires_at, k.prefix
        FROM api_keys k JOIN kinds ON k.expires_at - kinds.opens <= ${now}::timestamptz AND k.expires_at - kinds.closes > ${now}::timestamptz
       WHERE k.revoked_at IS NULL AND k.expires_at IS NOT NULL
         AND k.expires_at > ${now}::timestamptz AND k.expires_at <= ${now}::timestamptz + ${widest}::bigint * interval '1 millisecond'
         AND k.created_at <= k.expires_at - kinds.opens
    ),
    planned AS (
      INSERT INTO api_key_expiry_reminders (organization_id, id, api_key_id, kind, expires_at, prefix, planned_at)
      SELECT organization_id, gen_random_uuid(), api_key_id, kind, expires_at, prefix, ${now}::timestamptz FROM due
      ON CONFLICT (organization_id, api_key_id, kind, expires_at) DO NOTHING
      RETURNING organization_id, id
    )
    SELECT count(graphile_worker.add_job(
             ${SEND_REMINDER_TASK},
             json_build_object('organizationId', p.organization_id, 'reminderId', p.id, 'userId', m.user_id),
             job_key => 'api-key-expiry-reminder:' || p.id || ':' || m.user_id,
             max_attempts => ${REMINDER_MAIL_MAX_ATTEMPTS}::int))::int AS mails
      FROM planned p
      JOIN memberships m ON m.organization_id = p.organization_id AND m.role IN ('owner', 'admin')
      JOIN users u ON u.id = m.user_id AND u.deleted_at IS NULL`;
  return { mails: row?.mails ?? 0 };
}

// The daily housekeeping job (docs/decisions/0039-housekeeping-plans-and-migrations.md): removes
// what has ended and is no longer worth keeping. Scheduled by the job queue's cron
// (HOUSEKEEPING_CRON); graphile-worker fires each scheduled time once across every instance, and
// the job key keeps at most one waiting. Every purge deletes in bounded batches, each its own
// short statement, so a large backlog never holds a long lock; rows a request has locked are
// skipped (SKIP LOCKED) and go the next day. Running it twice changes nothing more.
import { parseCronItems, type JobHelpers, type TaskList } from "graphile-worker";
import { prisma } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";

const DAY = 24 * 60 * 60 * 1000;

/** An invitation's link stays known this long after it expired, so opening it says "expired"
 * (409) rather than "unknown link" (404); then its token's hash is dropped. The row stays: the
 * invitations page and the audit log name the invited address from it. */
export const INVITATION_LINK_GRACE = 30 * DAY;
/** A sign-up that never opened its verification link (24 hours) is removed after this long,
 * unless the account has anything that history or a person relies on (see purgeUnverifiedAccounts). */
export const UNVERIFIED_ACCOUNT_RETENTION = 30 * DAY;
/** A job that failed its last attempt is kept this long with its error, for whoever investigates. */
export const FAILED_JOB_RETENTION = 30 * DAY;

const BATCH = 1_000;
/** Deleting an account cascades to its sessions and links: smaller steps. */
const ACCOUNT_BATCH = 100;

export const HOUSEKEEPING_TASK = "housekeeping";

/** Every day at 03:17 UTC (off the hour, when few people sign in). A run missed because no
 * instance was up is made up for when one starts within 6 hours; later, the next day's run
 * catches up (each purge takes whatever has accumulated). */
export const HOUSEKEEPING_CRON = parseCronItems([
  {
    task: HOUSEKEEPING_TASK,
    identifier: HOUSEKEEPING_TASK,
    match: "17 3 * * *",
    options: { backfillPeriod: 6 * 60 * 60 * 1000, maxAttempts: 3, jobKey: HOUSEKEEPING_TASK, jobKeyMode: "replace" },
  },
]);

export interface HousekeepingCounts {
  sessions: number;
  passwordResets: number;
  emailVerifications: number;
  emailChanges: number;
  invitationLinks: number;
  unverifiedAccounts: number;
  rateLimits: number;
  failedJobs: number;
}

/** Runs `statement` (which affects at most `size` rows) until it affects fewer: the total. */
async function inBatches(size: number, statement: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const affected = await statement();
    total += affected;
    if (affected < size) return total;
  }
}

/** Deletes rows of a table whose `column` is at or before `now`, by primary key `key`. */
type ExpiringTable = "sessions" | "password_resets" | "email_verifications" | "email_changes";
function purgeExpired(table: ExpiringTable, key: "id" | "user_id", column: "expires_at", now: Date) {
  const [t, k, c] = [Prisma.raw(`"${table}"`), Prisma.raw(`"${key}"`), Prisma.raw(`"${column}"`)];
  return inBatches(BATCH, () =>
    prisma.$executeRaw(Prisma.sql`
      DELETE FROM ${t} WHERE ${k} IN (SELECT ${k} FROM ${t} WHERE ${c} <= ${now} LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)`),
  );
}

/**
 * Expired links drop their secret's hash (the row is history: see INVITATION_LINK_GRACE), and
 * the hash's lookup row goes in the same statement (decision 0050). Counted by the invitations
 * changed, so a batch whose lookups were already gone still leads to the next one.
 */
function forgetInvitationLinks(now: Date) {
  const before = new Date(now.getTime() - INVITATION_LINK_GRACE);
  return inBatches(BATCH, async () => {
    const [row] = await prisma.$queryRaw<{ forgotten: number }[]>`
      WITH due AS (
        SELECT organization_id, id, token_hash FROM invitations
         WHERE token_hash IS NOT NULL AND expires_at < ${before} LIMIT ${BATCH} FOR UPDATE SKIP LOCKED
      ), forgotten AS (
        UPDATE invitations i SET token_hash = NULL FROM due
         WHERE i.organization_id = due.organization_id AND i.id = due.id RETURNING due.token_hash
      ), unlisted AS (
        DELETE FROM invitation_tokens WHERE token_hash IN (SELECT token_hash FROM forgotten)
      )
      SELECT count(*)::int AS forgotten FROM forgotten`;
    return row?.forgotten ?? 0;
  });
}

/**
 * Accounts whose address was never proven, created before the retention, and that nothing else
 * relies on: no membership, no live session (someone is still using it), not a platform admin,
 * not deleted (deletion keeps its row on purpose), never named in an organization's audit log
 * or the support records, and nothing they made (an invitation, a key, a logo) that names them.
 */
function purgeUnverifiedAccounts(now: Date) {
  const before = new Date(now.getTime() - UNVERIFIED_ACCOUNT_RETENTION);
  return inBatches(
    ACCOUNT_BATCH,
    () =>
      prisma.$executeRaw`
      DELETE FROM users WHERE id IN (
        SELECT u.id FROM users u
         WHERE u.email_verified_at IS NULL AND u.created_at < ${before}
           AND u.deleted_at IS NULL AND NOT u.is_platform_admin
           AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = u.id AND s.expires_at > ${now})
           AND NOT EXISTS (SELECT 1 FROM audit_event_users a WHERE a.user_id = u.id::text)
           AND NOT EXISTS (SELECT 1 FROM audit_event_actors a WHERE a.actor_id = u.id::text)
           AND NOT EXISTS (SELECT 1 FROM support_actions s WHERE s.admin_user_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.invited_by_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.created_by_id = u.id)
           AND NOT EXISTS (SELECT 1 FROM organization_logos l WHERE l.uploaded_by_id = u.id)
         LIMIT ${ACCOUNT_BATCH} FOR UPDATE OF u SKIP LOCKED)`,
  );
}

/** rate-limiter-flexible's rows (expiry in epoch milliseconds) whose window has passed. */
function purgeRateLimits(now: Date) {
  return inBatches(
    BATCH,
    () =>
      prisma.$executeRaw`
      DELETE FROM rate_limits WHERE key IN (
        SELECT key FROM rate_limits WHERE expire IS NOT NULL AND expire <= ${now.getTime()} LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)`,
  );
}

/** Jobs that failed their last attempt, past the retention, through graphile-worker's own
 * function (completing a job deletes it). A job some worker holds is left alone. */
function purgeFailedJobs(now: Date) {
  const before = new Date(now.getTime() - FAILED_JOB_RETENTION);
  return inBatches(BATCH, async () => {
    const rows = await prisma.$queryRaw<{ id: bigint }[]>`
      SELECT id FROM graphile_worker.complete_jobs(ARRAY(
        SELECT id FROM graphile_worker.jobs
         WHERE attempts >= max_attempts AND locked_at IS NULL AND updated_at < ${before}
         ORDER BY id LIMIT ${BATCH}))`;
    return rows.length;
  });
}

/** One housekeeping run; `now` is the moment everything is judged against. */
export async function runHousekeeping(now = new Date()): Promise<HousekeepingCounts> {
  return {
    // A session ends at its sliding expiry, which is never later than its absolute one.
    sessions: await purgeExpired("sessions", "id", "expires_at", now),
    // Used links are deleted when used; these are the ones nobody opened in time.
    passwordResets: await purgeExpired("password_resets", "user_id", "expires_at", now),
    emailVerifications: await purgeExpired("email_verifications", "user_id", "expires_at", now),
    emailChanges: await purgeExpired("email_changes", "user_id", "expires_at", now),
    invitationLinks: await forgetInvitationLinks(now),
    unverifiedAccounts: await purgeUnverifiedAccounts(now),
    rateLimits: await purgeRateLimits(now),
    failedJobs: await purgeFailedJobs(now),
  };
}

export const housekeepingTasks: TaskList = {
  [HOUSEKEEPING_TASK]: async (_payload, helpers: JobHelpers) => {
    const counts = await runHousekeeping();
    helpers.logger.info(`housekeeping done: ${JSON.stringify(counts)}`);
  },
};

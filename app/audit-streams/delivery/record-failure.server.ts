// A failed delivery, in one transaction: the stream's run of failures grows (its first failure's
// time kept, the next attempt after a growing pause), the failure is listed (the newest 20 kept),
// and when the run has lasted STREAMING_FAILING_AFTER_SECONDS the organization's owners are mailed,
// once per run: failing_notified_at is set in the same statement that decides it, and the mail
// jobs are added in the same transaction (the job table is the outbox), so a crash between the two
// neither loses the mail nor sends it twice.
import { v7 as uuidv7 } from "uuid";
import type { SendResult } from "~/audit-streams/outbound/send-result";
import { prisma } from "~/db.server";
import { env } from "~/env.server";
import { Prisma } from "~/generated/prisma/client";
import { enqueueJob } from "~/jobs/queue.server";
import { FAILING_MAIL_TASK } from "./failing-mail.server";
import { retryPauseMs } from "./retry-pause";
import { unchanged, type DeliverableStream } from "./stream-position.server";

/** Failures kept per stream (the delivery page lists them). */
export const FAILURES_KEPT = 20;

/** Detail text is ours (an error code, "answered 503"), but bounded all the same. */
const DETAIL_MAX = 500;

type Failed = Extract<SendResult, { ok: false }>;

/** Records the failure. False when the stream changed meanwhile (nothing recorded then). */
export async function recordFailure(stream: DeliverableStream, result: Failed): Promise<boolean> {
  const pauseMs = retryPauseMs(stream.consecutiveFailures + 1);
  const failingAfter = env().STREAMING_FAILING_AFTER_SECONDS;
  const { organizationId, streamId } = stream;
  return prisma.$transaction(async (tx) => {
    // "mailOwners": this statement set failing_notified_at (to this transaction's now(), which an
    // earlier notification cannot have; compared at the column's millisecond precision).
    const [run] = await tx.$queryRaw<{ mailOwners: boolean }[]>`
      UPDATE audit_streams SET
        consecutive_failures = consecutive_failures + 1,
        failing_since = COALESCE(failing_since, now()),
        next_attempt_at = now() + make_interval(secs => ${pauseMs / 1000}::float8),
        failing_notified_at = CASE
          WHEN failing_notified_at IS NULL AND COALESCE(failing_since, now()) <= now() - make_interval(secs => ${failingAfter}::int)
          THEN now() ELSE failing_notified_at END
      WHERE ${unchanged(stream)}
      RETURNING (failing_notified_at = now()::timestamptz(3)) AS "mailOwners"`;
    if (!run) return false;
    await tx.$executeRaw`
      INSERT INTO audit_stream_failures (organization_id, stream_id, id, failure, status, detail)
      VALUES (${organizationId}::uuid, ${streamId}::uuid, ${uuidv7()}::uuid, ${result.failure}, ${result.status}::int,
              ${result.detail.slice(0, DETAIL_MAX)})`;
    await tx.$executeRaw`
      DELETE FROM audit_stream_failures
      WHERE organization_id = ${organizationId}::uuid AND stream_id = ${streamId}::uuid AND id IN (
        SELECT id FROM audit_stream_failures
        WHERE organization_id = ${organizationId}::uuid AND stream_id = ${streamId}::uuid
        ORDER BY at DESC, id DESC OFFSET ${Prisma.raw(String(FAILURES_KEPT))})`;
    if (run.mailOwners) {
      const owners = await tx.$queryRaw<{ userId: string }[]>`
        SELECT m.user_id AS "userId" FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.organization_id = ${organizationId}::uuid AND m.role = 'owner' AND u.deleted_at IS NULL`;
      for (const { userId } of owners) await enqueueJob(tx, FAILING_MAIL_TASK, { organizationId, streamId, userId });
    }
    return true;
  });
}

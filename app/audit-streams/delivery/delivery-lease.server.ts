// One delivery run per stream at a time, and a stream freed soon after the process delivering it
// dies (docs/decisions/0053-stream-delivery.md). A run claims the stream's lease before its first
// batch and renews it with each batch (loadStream); it gives it back when it ends. A run whose
// process was killed simply stops renewing: LEASE_SECONDS later the pump sees the stream free and
// queues a new run, which goes on from the cursor.
// Why not graphile-worker's job queues (one job at a time per queue name), which would say the
// same: a worker killed mid-job keeps that job and its queue locked until graphile-worker takes
// locks back, four hours later, and the stream would stand still that long.
import { randomUUID } from "node:crypto";
import { queryPrepared } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";

/** How long a run holds its stream without renewing: longer than a request (10 s) and the reads around it; renewed each batch and while a batch's requests are out. */
export const LEASE_SECONDS = 30;

/** `delivery_lease_until`'s new value whenever the lease is taken or renewed. */
export const LEASE_UNTIL = Prisma.raw(`now() + interval '${LEASE_SECONDS} seconds'`);

/** Takes the stream's lease when no live run holds it: the lease's id, or why not (`held` by a live run, or the stream is `gone`). */
export async function claimLease(organizationId: string, streamId: string): Promise<{ lease: string } | "held" | "gone"> {
  const lease = randomUUID();
  const [claimed] = await queryPrepared<{ free: boolean }>(Prisma.sql`
    WITH claimed AS (
      UPDATE audit_streams SET delivery_lease = ${lease}::uuid, delivery_lease_until = ${LEASE_UNTIL}
      WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid
        AND (delivery_lease_until IS NULL OR delivery_lease_until < now())
      RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM claimed) AS free
    FROM audit_streams WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid`);
  if (!claimed) return "gone";
  return claimed.free ? { lease } : "held";
}

/** Gives the lease back (if it is still this run's), so the next run need not wait for it to end. */
export async function releaseLease(organizationId: string, streamId: string, lease: string): Promise<void> {
  await queryPrepared(Prisma.sql`
    UPDATE audit_streams SET delivery_lease = NULL, delivery_lease_until = NULL
    WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid AND delivery_lease = ${lease}::uuid`);
}

/** How often a run renews its lease while a batch is out. */
export const LEASE_RENEW_MS = (LEASE_SECONDS * 1000) / 3;

/**
 * Runs `work` (a batch's requests) while renewing the lease every `everyMs`: a batch larger than the
 * request cap goes as several requests of up to 10 s each, which together can outlast the lease.
 */
export async function whileHoldingLease<T>(
  organizationId: string,
  streamId: string,
  lease: string,
  work: () => Promise<T>,
  everyMs = LEASE_RENEW_MS,
): Promise<T> {
  const renew = () =>
    queryPrepared(Prisma.sql`
      UPDATE audit_streams SET delivery_lease_until = ${LEASE_UNTIL}
      WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid AND delivery_lease = ${lease}::uuid`).catch(() => {
      // Tried again at the next tick; should the lease end meanwhile, another run may send the
      // batch again (at least once), and the cursor's compare-and-set keeps the order.
    });
  const timer = setInterval(() => void renew(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

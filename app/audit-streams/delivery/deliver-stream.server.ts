// The delivery job: one stream's events to its destination, in stream order, at least once
// (docs/decisions/0053-stream-delivery.md). A run reads a batch, sends it, and moves the cursor
// with a compare-and-set on what it read; it goes on until nothing is left below the horizon or
// it reaches its bound, then queues the next run, so one busy stream never holds a worker for
// long. A receiver's failure is recorded and ends the run quietly: the pump comes back after the
// pause (graphile-worker's own retry would add its pauses on top of ours). Database errors throw
// (graphile-worker retries the job; the cursor is where it was).
import type { JobHelpers } from "graphile-worker";
import { z } from "zod";
import { sendBatch } from "~/audit-streams/outbound/send-batch.server";
import type { SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamBatch } from "~/audit-streams/stream-event";
import { taskWithPayload } from "~/jobs/queue.server";
import { countStreamDelivery } from "~/metrics/audit-stream-metrics.server";
import { claimLease, releaseLease, whileHoldingLease } from "./delivery-lease.server";
import { queueDelivery } from "./delivery-jobs.server";
import { readBatch } from "./read-batch.server";
import { recordFailure } from "./record-failure.server";
import { advanceCursor, loadStream } from "./stream-position.server";

/** A run's bound: whichever comes first. */
export const RUN_BATCHES = 40;
export const RUN_MS = 10_000;

/** How a run ended. `more`: at its bound with events left (the next run is queued). */
export type RunOutcome = "caught-up" | "more" | "failed" | "waiting" | "blocked" | "gone" | "overtaken" | "busy";

export type Sender = (destination: Parameters<typeof sendBatch>[0], batch: StreamBatch) => Promise<SendResult>;

/** A run's limits: the defaults, or a test's own. */
export interface RunBound {
  batches: number;
  ms: number;
  /** How often the lease is renewed while a batch is out (LEASE_RENEW_MS unless a test sets it). */
  renewMs?: number;
}

/**
 * One run for one stream, under its lease: `busy` when another live run holds the stream. `send`
 * is the outbound sender and `bound` the run's limits (tests pass their own).
 */
export async function deliverStream(
  organizationId: string,
  streamId: string,
  send: Sender = sendBatch,
  bound: RunBound = { batches: RUN_BATCHES, ms: RUN_MS },
): Promise<RunOutcome> {
  const claim = await claimLease(organizationId, streamId);
  if (claim === "gone") return "gone";
  if (claim === "held") return "busy";
  try {
    return await deliverBatches(organizationId, streamId, claim.lease, send, bound);
  } finally {
    await releaseLease(organizationId, streamId, claim.lease);
  }
}

async function deliverBatches(organizationId: string, streamId: string, lease: string, send: Sender, bound: RunBound): Promise<RunOutcome> {
  const deadline = Date.now() + bound.ms;
  for (let batches = 0; batches < bound.batches && Date.now() < deadline; batches++) {
    const stream = await loadStream(organizationId, streamId, lease);
    if (!stream) return "gone";
    if (stream.blockedBy) return "blocked";
    if (stream.nextAttemptAt && stream.nextAttemptAt.getTime() > Date.now()) return "waiting";
    const batch = await readBatch(organizationId, stream.position, stream.deliverFrom);
    if (!batch.end) return "caught-up";
    // Events before deliver_from are passed over: the cursor moves, nothing is sent.
    const sent = batch.events.length > 0;
    if (sent) {
      // The version as generation: a retry sends the same webhook-ids, a restart or edit new ones.
      const generation = stream.version;
      const outgoing = { organizationId, streamId, type: "audit.events" as const, events: batch.events, generation };
      const result = await whileHoldingLease(organizationId, streamId, lease, () => send(stream.destination, outgoing), bound.renewMs);
      countStreamDelivery(stream.destination.kind, result.ok ? "ok" : result.failure, result.ok ? batch.events.length : 0);
      if (!result.ok) return (await recordFailure(stream, result)) ? "failed" : "overtaken";
    }
    // No row: deleted, paused, restarted or edited meanwhile, or another run moved first.
    if (!(await advanceCursor(stream, batch.end, sent))) return "overtaken";
  }
  return "more";
}

const payloadSchema = z.object({ organizationId: z.uuid(), streamId: z.uuid() });

export const deliverStreamTask = taskWithPayload(
  "audit stream delivery",
  payloadSchema,
  async ({ organizationId, streamId }, helpers: JobHelpers) => {
    const outcome = await deliverStream(organizationId, streamId);
    if (outcome === "more") await queueDelivery(organizationId, streamId);
    if (outcome === "failed") helpers.logger.info("audit stream delivery failed: the failure is recorded, the next attempt waits");
  },
);

// How a stream's delivery job is queued: one job key per stream, so at most one job waits per
// stream (adding another replaces the waiting one; adding one while a run is locked starts a new
// one, which the stream's lease keeps from running beside it: delivery-lease.server.ts). Shared by
// the pump and by a run that stops at its bound with events left.
import { pool } from "~/db.server";

export const DELIVER_STREAM_TASK = "audit-stream-delivery";

/** The job key of a stream's delivery: `audit-stream:<id>`. */
export const deliveryJobKey = (streamId: string) => `audit-stream:${streamId}`;

/** `graphile_worker.add_job` for the stream ids `organizationId` and `streamId` (SQL expressions). */
export function addDeliveryJobSql(organizationId: string, streamId: string): string {
  return `graphile_worker.add_job(
      '${DELIVER_STREAM_TASK}',
      json_build_object('organizationId', ${organizationId}, 'streamId', ${streamId}),
      job_key => 'audit-stream:' || ${streamId}::text,
      max_attempts => 3)`;
}

/** Queues the stream's next run (its previous one ended at the bound with events left). */
export async function queueDelivery(organizationId: string, streamId: string): Promise<void> {
  await pool().query(`SELECT (${addDeliveryJobSql("$1::uuid", "$2::uuid")}).id`, [organizationId, streamId]);
}

// What a stream delivers: one versioned JSON shape for every destination (docs/audit-stream-format.md).
// An event carries the export's columns (app/audit/export/columns.ts), names resolved when the batch
// is sent, and its details as stored. Receivers drop duplicates by `id` (delivery is at least once).

/** Bumped only for a change a receiver could break on; new optional members keep the version. */
export const STREAM_FORMAT_VERSION = 1;

export interface StreamEvent {
  /** The event's UUID v7: stable across retries and replays, the receiver's key for dropping duplicates. */
  id: string;
  /** ISO 8601 with milliseconds, UTC. */
  createdAt: string;
  action: string;
  actorKind: "user" | "api_key" | "job" | "agent" | "system";
  actorId: string;
  /** The actor's name when the batch was sent (null for a deleted person, a system actor, or a name not known). */
  actorName: string | null;
  targetType: string;
  targetId: string;
  targetName: string | null;
  details: unknown;
}

/** What one delivery carries: a stream's events in its order, oldest first. */
export interface StreamBatch {
  organizationId: string;
  streamId: string;
  /** `audit.events` for the log, `audit.test` for the "send a test event" button. */
  type: "audit.events" | "audit.test";
  events: StreamEvent[];
  /**
   * The stream's version when the batch was read: a retry of the batch keeps it, an edit or a
   * restart ("start from now", "replay from a date") moves it on, so a replay's webhooks are new
   * messages (webhook-id) rather than repeats. Left out for the test event (its id is new each time).
   */
  generation?: number;
}

/** The webhook body (docs/contract.md): `{"type":"audit.events","version":1,"data":[event,…]}`. */
export function webhookBody(batch: StreamBatch): string {
  return JSON.stringify({ type: batch.type, version: STREAM_FORMAT_VERSION, data: batch.events });
}

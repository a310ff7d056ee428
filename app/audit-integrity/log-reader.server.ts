// Reads an organization's log in stream order for the verifier, a batch at a time (a log of
// millions of events never sits in memory at once), from the primary: a replica may lag and would
// show sealed events as deleted. The next batch is asked for while the caller works through the
// current one.
import { pool } from "~/db.server";
import type { StreamPosition } from "./digest-document";
import { type SealedEventRow } from "./seal.server";
import { numericPosition, type NumericPosition } from "./stream-position";

/** Events per batch: large enough that the round trips do not count, small enough to stay light. */
export const VERIFY_BATCH_SIZE = 10_000;

/** The events after a position and up to another (or to the end: the highest possible position), in
 * stream order, with the facts a digest seals. */
const EVENTS_BETWEEN_SQL = `
  SELECT id::text AS id, (extract(epoch FROM created_at) * 1000)::bigint::text AS created_ms, action,
         actor_kind::text AS actor_kind, actor_id, target_type, target_id, details::text AS details,
         COALESCE(transaction_id, '0'::xid8)::text AS transaction_id
  FROM audit_events
  WHERE organization_id = $1
    AND (COALESCE(transaction_id, '0'::xid8), id) > ($2::xid8, $3::uuid)
    AND (COALESCE(transaction_id, '0'::xid8), id) <= ($4::xid8, $5::uuid)
  ORDER BY COALESCE(audit_events.transaction_id, '0'::xid8), audit_events.id
  LIMIT $6`;

/** Past every event: the largest xid8 and uuid. */
export const END_POSITION: StreamPosition = { transactionId: "18446744073709551615", eventId: "ffffffff-ffff-ffff-ffff-ffffffffffff" };

export interface LogEvent {
  row: SealedEventRow;
  position: NumericPosition;
}

function fetchBatch(organizationId: string, after: StreamPosition, until: StreamPosition, size: number): Promise<SealedEventRow[]> {
  const batch = pool()
    .query<SealedEventRow>(EVENTS_BETWEEN_SQL, [
      organizationId,
      after.transactionId,
      after.eventId,
      until.transactionId,
      until.eventId,
      size,
    ])
    .then((result) => result.rows);
  // Asked for ahead: a walk that stops early never awaits it, and its failure must not go unhandled.
  batch.catch(() => {});
  return batch;
}

/** The organization's events after `after` up to `until` (included), in stream order. */
export async function* eventsBetween(
  organizationId: string,
  after: StreamPosition,
  until: StreamPosition = END_POSITION,
  size = VERIFY_BATCH_SIZE,
): AsyncGenerator<LogEvent> {
  let next: Promise<SealedEventRow[]> | null = fetchBatch(organizationId, after, until, size);
  while (next) {
    const rows: SealedEventRow[] = await next;
    const last = rows[rows.length - 1];
    next =
      rows.length === size && last
        ? fetchBatch(organizationId, { transactionId: last.transaction_id, eventId: last.id }, until, size)
        : null;
    for (const row of rows) yield { row, position: numericPosition({ transactionId: row.transaction_id, eventId: row.id }) };
  }
}

/** A stream with one event of look-ahead: the walk takes events up to a position and leaves the rest. */
export class LogCursor {
  private pending: LogEvent | null = null;
  private done = false;

  constructor(private readonly events: AsyncGenerator<LogEvent>) {}

  async peek(): Promise<LogEvent | null> {
    if (!this.pending && !this.done) {
      const step = await this.events.next();
      if (step.done) this.done = true;
      else this.pending = step.value;
    }
    return this.pending;
  }

  /** The next event if it sorts at or before `until` (every remaining one when `until` is null). */
  async takeUpTo(until: NumericPosition | null, compare: (a: NumericPosition, b: NumericPosition) => number): Promise<LogEvent | null> {
    const event = await this.peek();
    if (!event || (until && compare(event.position, until) > 0)) return null;
    this.pending = null;
    return event;
  }
}

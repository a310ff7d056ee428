// The reader: a stream's next events after its cursor, in stream order, in one statement that
// takes the horizon and the events in the same snapshot (docs/decisions/0053-stream-delivery.md).
//
// Stream order is (COALESCE(transaction_id, '0'), id): the writing transaction's id, then the
// event's. Only events below pg_snapshot_xmin(pg_current_snapshot()) are read: every transaction
// with a smaller id has ended, so each of their events is visible to this statement, and any
// transaction still to write gets a larger id. Nothing can therefore appear behind the cursor
// later, and a cursor that only ever moves to the last event read skips nothing.
import { nameJoins, NAMED_COLUMNS } from "~/audit/query.server";
import type { StreamEvent } from "~/audit-streams/stream-event";
import { queryPrepared, uuidOrNull } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";

/** Events per batch: one request to the receiver. */
export const BATCH_SIZE = 500;

/** A place in stream order: the last event a stream has passed (`'0'` and the nil uuid: none yet). */
export interface StreamPosition {
  /** An xid8 as decimal text (it can exceed 2^53). */
  transactionId: string;
  eventId: string;
}

export interface ReadBatch {
  /** The events to send, oldest first: those of the rows read created at or after `deliverFrom`. */
  events: StreamEvent[];
  /** Where the cursor goes once they are delivered (the last row read), or null when none was read. */
  end: StreamPosition | null;
}

interface BatchRow {
  id: string;
  createdAt: Date;
  action: string;
  actorKind: StreamEvent["actorKind"];
  actorId: string;
  targetType: string;
  targetId: string;
  actorName: string | null;
  targetName: string | null;
  details: unknown;
  transactionId: string;
}

/** The audit view's name lookups (app/audit/query.server.ts), each converting its id itself, as the export's. */
const NAME_JOINS = nameJoins(uuidOrNull("e.actor_id"), uuidOrNull("e.target_id"));

/** The batch's statement (exported for the plan test). The limit is written in: a constant, and
 * with it known the prepared statement's generic plan is the custom one. */
export function batchSql(organizationId: string, after: StreamPosition): Prisma.Sql {
  return Prisma.sql`
    SELECT ${NAMED_COLUMNS}, e.details, e.stream_transaction_id::text AS "transactionId"
    FROM (
      SELECT id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details,
             COALESCE(transaction_id, '0'::xid8) AS stream_transaction_id
      FROM audit_events
      WHERE organization_id = ${organizationId}::uuid
        AND (COALESCE(transaction_id, '0'::xid8), id) > (${after.transactionId}::xid8, ${after.eventId}::uuid)
        AND COALESCE(transaction_id, '0'::xid8) < (SELECT pg_snapshot_xmin(pg_current_snapshot()))
      ORDER BY COALESCE(transaction_id, '0'::xid8), id
      LIMIT ${Prisma.raw(String(BATCH_SIZE))}
    ) e
    ${NAME_JOINS}
    ORDER BY e.stream_transaction_id, e.id`;
}

function toStreamEvent(row: BatchRow): StreamEvent {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    action: row.action,
    actorKind: row.actorKind,
    actorId: row.actorId,
    actorName: row.actorName,
    targetType: row.targetType,
    targetId: row.targetId,
    targetName: row.targetName,
    details: row.details,
  };
}

/**
 * The next batch after `after`. Events created before `deliverFrom` ("replay from a date") are
 * read but not returned: the cursor moves past them and nothing is sent for them.
 */
export async function readBatch(organizationId: string, after: StreamPosition, deliverFrom: Date | null): Promise<ReadBatch> {
  const rows = await queryPrepared<BatchRow>(batchSql(organizationId, after));
  const last = rows.at(-1);
  const from = deliverFrom?.getTime() ?? -Infinity;
  return {
    events: rows.filter((row) => row.createdAt.getTime() >= from).map(toStreamEvent),
    end: last ? { transactionId: last.transactionId, eventId: last.id } : null,
  };
}

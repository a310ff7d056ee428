// A stream as the delivery job sees it (destination, cursor, failure run, and whether its
// organization may stream now), and the two ways a delivery attempt ends: the cursor moves
// forward, or the failure is recorded. Both are compare-and-set on the version and cursor the job
// read: when the row changed meanwhile (deleted, paused, restarted, edited, or another run of the
// same job got there first) nothing is written and the job stops quietly.
import { billingBlocksPaidFeatures } from "~/access/billing-pause";
import type { Destination } from "~/audit-streams/destinations";
import { queryPrepared } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import type { BillingState } from "~/generated/prisma/enums";
import { planHas } from "~/plans/catalog";
import { LEASE_UNTIL } from "./delivery-lease.server";
import type { StreamPosition } from "./read-batch.server";

export interface DeliverableStream {
  organizationId: string;
  streamId: string;
  name: string;
  destination: Destination;
  version: number;
  position: StreamPosition;
  deliverFrom: Date | null;
  nextAttemptAt: Date | null;
  consecutiveFailures: number;
  /** Why delivery is off now, or null: paused by a person, or the organization's plan or billing. */
  blockedBy: "paused" | "plan" | "billing" | null;
}

interface StreamRow {
  name: string;
  kind: Destination["kind"];
  settings: Destination["settings"];
  credentials: Destination["credentials"];
  paused: boolean;
  version: number;
  cursorTransactionId: string;
  cursorEventId: string;
  deliverFrom: Date | null;
  nextAttemptAt: Date | null;
  consecutiveFailures: number;
  planId: string;
  billingState: BillingState;
}

/**
 * The stream as it is now, its lease renewed in the same statement (delivery-lease.server.ts); null
 * when it (or its organization) is gone, or the lease is no longer this run's.
 */
export async function loadStream(organizationId: string, streamId: string, lease: string): Promise<DeliverableStream | null> {
  const [row] = await queryPrepared<StreamRow>(Prisma.sql`
    UPDATE audit_streams s SET delivery_lease_until = ${LEASE_UNTIL}
    FROM organizations o
    WHERE s.organization_id = ${organizationId}::uuid AND s.id = ${streamId}::uuid AND s.delivery_lease = ${lease}::uuid
      AND o.id = ${organizationId}::uuid
    RETURNING s.name, s.kind, s.settings, s.credentials, s.paused, s.version,
           s.cursor_transaction_id::text AS "cursorTransactionId", s.cursor_event_id AS "cursorEventId",
           s.deliver_from AS "deliverFrom", s.next_attempt_at AS "nextAttemptAt",
           s.consecutive_failures AS "consecutiveFailures", o.plan_id AS "planId", o.billing_state AS "billingState"`);
  if (!row) return null;
  const blockedBy = row.paused
    ? "paused"
    : !planHas(row.planId, "auditStreaming")
      ? "plan"
      : billingBlocksPaidFeatures(row.billingState)
        ? "billing"
        : null;
  return {
    organizationId,
    streamId,
    name: row.name,
    destination: { kind: row.kind, settings: row.settings, credentials: row.credentials } as Destination,
    version: row.version,
    position: { transactionId: row.cursorTransactionId, eventId: row.cursorEventId },
    deliverFrom: row.deliverFrom,
    nextAttemptAt: row.nextAttemptAt,
    consecutiveFailures: row.consecutiveFailures,
    blockedBy,
  };
}

/** The row as the job read it: same version (no edit, pause or restart since), same cursor. */
export function unchanged(stream: DeliverableStream): Prisma.Sql {
  return Prisma.sql`organization_id = ${stream.organizationId}::uuid AND id = ${stream.streamId}::uuid
    AND version = ${stream.version} AND NOT paused
    AND cursor_transaction_id = ${stream.position.transactionId}::xid8 AND cursor_event_id = ${stream.position.eventId}::uuid`;
}

/**
 * Moves the cursor to `to` after a batch was delivered (or, with `sent` false, passed over before
 * `deliver_from`). A delivery ends the run of failures. False when the row changed meanwhile.
 */
export async function advanceCursor(stream: DeliverableStream, to: StreamPosition, sent: boolean): Promise<boolean> {
  const moved = await queryPrepared<{ moved: number }>(Prisma.sql`
    UPDATE audit_streams SET
      cursor_transaction_id = ${to.transactionId}::xid8, cursor_event_id = ${to.eventId}::uuid,
      last_delivered_at = CASE WHEN ${sent}::boolean THEN now() ELSE last_delivered_at END,
      consecutive_failures = CASE WHEN ${sent}::boolean THEN 0 ELSE consecutive_failures END,
      failing_since = CASE WHEN ${sent}::boolean THEN NULL ELSE failing_since END,
      failing_notified_at = CASE WHEN ${sent}::boolean THEN NULL ELSE failing_notified_at END,
      next_attempt_at = CASE WHEN ${sent}::boolean THEN NULL ELSE next_attempt_at END
    WHERE ${unchanged(stream)}
    RETURNING 1 AS moved`);
  return moved.length > 0;
}

// What the service shows of a stream (StreamView: never a credential, only the names of the
// credential fields that are stored) and the one statement that reads it, with the stream's lag.
import type { DeliveryFailure } from "~/audit-streams/outbound/send-result";
import type { DestinationSettings, StreamKind, StreamState } from "~/audit-streams/destinations";
import { destinationLabel } from "~/audit-streams/destinations";
import { prisma, type Tx } from "~/db.server";
import { env } from "~/env.server";
import { Prisma } from "~/generated/prisma/client";

export interface StreamView {
  id: string;
  name: string;
  kind: StreamKind;
  state: StreamState;
  /** destinationLabel: where it sends, without anything that could carry a secret. */
  destination: string;
  settings: DestinationSettings;
  /** Names of the stored credential fields, never their values. */
  credentialsSet: string[];
  createdAt: Date;
  lastDeliveredAt: Date | null;
  /** Age in seconds of the oldest event still to deliver; 0 when none is waiting. */
  lagSeconds: number | null;
  failingSince: Date | null;
  nextAttemptAt: Date | null;
  deliverFrom: Date | null;
  version: number;
}

export interface StreamFailureView {
  at: Date;
  failure: DeliveryFailure;
  status: number | null;
  detail: string;
}

export type StreamDetail = StreamView & { recentFailures: StreamFailureView[] };

/** How many failures a stream's page shows (the delivery job keeps this many). */
export const RECENT_FAILURES = 20;

interface StreamRow {
  id: string;
  name: string;
  kind: StreamKind;
  settings: DestinationSettings;
  credentialsSet: string[];
  paused: boolean;
  createdAt: Date;
  lastDeliveredAt: Date | null;
  failingSince: Date | null;
  nextAttemptAt: Date | null;
  deliverFrom: Date | null;
  version: number;
  lagSeconds: number | null;
}

/** paused when paused; failing once the current run of failures has lasted
 * STREAMING_FAILING_AFTER_SECONDS; else active. */
export function streamState(row: { paused: boolean; failingSince: Date | null }, now = new Date()): StreamState {
  if (row.paused) return "paused";
  if (row.failingSince && now.getTime() - row.failingSince.getTime() >= env().STREAMING_FAILING_AFTER_SECONDS * 1000) return "failing";
  return "active";
}

function toView({ paused, ...row }: StreamRow, now: Date): StreamView {
  return {
    ...row,
    state: streamState({ paused, failingSince: row.failingSince }, now),
    destination: destinationLabel({ kind: row.kind, settings: row.settings } as Parameters<typeof destinationLabel>[0]),
  };
}

/**
 * The organization's streams (or one of them), oldest first. Credentials are not read, only their
 * field names. The lag is the age of the first event after the cursor in stream order (the index
 * audit_events_stream_order_idx finds it in one step); while a replay is still passing over the
 * events before its day, that day's start stands for it (looking further would walk the whole
 * passed-over history on every read of the page).
 */
export async function readStreamViews(organizationId: string, streamId?: string, db: Tx = prisma): Promise<StreamView[]> {
  const one = streamId === undefined ? Prisma.empty : Prisma.sql`AND s.id = ${streamId}::uuid`;
  const rows = await db.$queryRaw<StreamRow[]>`
    SELECT s.id::text AS id, s.name, s.kind, s.settings,
           ARRAY(SELECT jsonb_object_keys(s.credentials) ORDER BY 1) AS "credentialsSet",
           s.paused, s.created_at AS "createdAt", s.last_delivered_at AS "lastDeliveredAt",
           s.failing_since AS "failingSince", s.next_attempt_at AS "nextAttemptAt", s.deliver_from AS "deliverFrom",
           s.version,
           COALESCE(GREATEST(0, EXTRACT(EPOCH FROM (now() - GREATEST(w.created_at, s.deliver_from))))::float8, 0) AS "lagSeconds"
      FROM audit_streams s
      LEFT JOIN LATERAL (
        SELECT e.created_at FROM audit_events e
         WHERE e.organization_id = ${organizationId}::uuid
           AND (COALESCE(e.transaction_id, '0'::xid8), e.id) > (s.cursor_transaction_id, s.cursor_event_id)
         ORDER BY COALESCE(e.transaction_id, '0'::xid8), e.id
         LIMIT 1) w ON true
     WHERE s.organization_id = ${organizationId}::uuid ${one}
     ORDER BY s.created_at, s.id`;
  const now = new Date();
  return rows.map((row) => toView(row, now));
}

/** A stream's newest failures, newest first. */
export async function readRecentFailures(organizationId: string, streamId: string): Promise<StreamFailureView[]> {
  return prisma.auditStreamFailure
    .findMany({
      where: { organizationId, streamId },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: RECENT_FAILURES,
      select: { at: true, failure: true, status: true, detail: true },
    })
    .then((rows) => rows.map((row) => ({ ...row, failure: row.failure as DeliveryFailure })));
}

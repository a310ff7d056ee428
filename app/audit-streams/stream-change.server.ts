// One edit of a stream (updateStream): checked and prepared before the transaction (the input's
// rules, the merged destination, its address), applied inside it under the locks, against the
// version the editor saw. Two admins editing at once: the first to commit wins, the other's
// version is stale and is refused whole (409), nothing of it written.
import { z } from "zod";
import { destinationLabel, streamNameSchema, type Destination, type StreamKind } from "~/audit-streams/destinations";
import { checkDestinationAddress, sendBatch } from "~/audit-streams/outbound/send-batch.server";
import { changedDestination, parseOrRefuse, sameJson } from "~/audit-streams/stream-input.server";
import { startLabel, streamStartSchema, type StreamStart } from "~/audit-streams/stream-start";
import { lockOrganization } from "~/access/organization-lock.server";
import type { recordAs } from "~/audit/record.server";
import { prisma, type Tx } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";

export interface StreamChange {
  /** The version the editor saw (StreamView.version). */
  version: number;
  name?: string;
  /** The kind's fields; a credential left out or "" keeps the stored one, unless the edit moves it
   * to another receiver (movesCredentials: then every credential must be given again). */
  destination?: Record<string, unknown>;
  paused?: boolean;
  start?: StreamStart;
}

/** What the service reaches the network with: the outbound module (part B of issue 32). The demo
 * story passes a receiver of its own, so seeding never sends anything anywhere. */
export interface Outbound {
  checkDestinationAddress: typeof checkDestinationAddress;
  sendBatch: typeof sendBatch;
}
export const OUTBOUND: Outbound = { checkDestinationAddress, sendBatch };

const changeSchema = z.object({
  version: z.number().int().min(1).max(2_147_483_647),
  name: streamNameSchema.optional(),
  destination: z.record(z.string(), z.unknown()).optional(),
  paused: z.boolean().optional(),
  start: streamStartSchema.optional(),
});

/** A stream as its changes read it under the lock, credentials included (never returned). */
export interface LockedStream {
  name: string;
  kind: StreamKind;
  destination: Destination;
  paused: boolean;
  version: number;
}

type StoredRow = { name: string; kind: StreamKind; settings: object; credentials: object; paused: boolean; version: number };

const toLocked = (row: StoredRow): LockedStream => ({
  name: row.name,
  kind: row.kind,
  destination: { kind: row.kind, settings: row.settings, credentials: row.credentials } as Destination,
  paused: row.paused,
  version: row.version,
});

/** Locks the organization, then the stream's row, or answers 404 (also for ids that are not UUIDs). */
export async function lockStream(tx: Tx, organizationId: string, streamId: string): Promise<LockedStream> {
  if (!isUuid(streamId)) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  await lockOrganization(tx, organizationId);
  const [row] = await tx.$queryRaw<StoredRow[]>`
    SELECT name, kind, settings, credentials, paused, version FROM audit_streams
     WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid FOR UPDATE`;
  if (!row) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  return toLocked(row);
}

const staleVersion = () => new DomainError("CONFLICT", "auditStreamChange.staleVersion");

/** Setting fields whose values differ (their names only). */
function changedSettingNames(from: Destination, to: Destination): string[] {
  const a = from.settings as Record<string, unknown>;
  const b = to.settings as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key])).sort();
}

/**
 * Checks `change` and prepares it: the input's rules, the destination merged over the stored one
 * and its address (so nothing slow runs under the locks). Returns what applies it inside the
 * transaction, given the stream as locked there.
 */
export async function changeStream(organizationId: string, streamId: string, rawChange: StreamChange, outbound: Outbound) {
  const change = parseOrRefuse(changeSchema, rawChange);
  if (!isUuid(streamId)) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  const stored = await prisma.$queryRaw<StoredRow[]>`
    SELECT name, kind, settings, credentials, paused, version FROM audit_streams
     WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid`;
  if (!stored[0]) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  const before = toLocked(stored[0]);
  if (before.version !== change.version) throw staleVersion();
  const destination = change.destination ? changedDestination(before.destination, change.destination) : before.destination;
  if (change.destination) await requireSendableAddress(destination, outbound);

  return async (tx: Tx, current: LockedStream, record: ReturnType<typeof recordAs>): Promise<void> => {
    // The version changes with every edit, so an equal version means the destination merged above
    // is still the stored one.
    if (current.version !== change.version) throw staleVersion();
    const name = change.name ?? current.name;
    const nameChanged = name !== current.name;
    const labels = { from: destinationLabel(current.destination), to: destinationLabel(destination) };
    const changedSettings = changedSettingNames(current.destination, destination);
    const credentialsReplaced = !sameJson(
      current.destination.credentials as Record<string, unknown>,
      destination.credentials as Record<string, unknown>,
    );
    const pausing = change.paused !== undefined && change.paused !== current.paused;
    const restart = change.start;
    const edited = nameChanged || changedSettings.length > 0 || credentialsReplaced;
    if (!edited && !pausing && !restart) return;

    // A new destination, a resume or a restart begins a fresh run: the old failures no longer say
    // anything about what comes next, and delivery is tried at once.
    const freshRun = changedSettings.length > 0 || credentialsReplaced || (pausing && change.paused === false) || restart !== undefined;
    const startSet = restart
      ? Prisma.sql`, (cursor_transaction_id, cursor_event_id, deliver_from) = (SELECT ${startColumns(restart)})`
      : Prisma.empty;
    const runReset = freshRun
      ? Prisma.sql`, consecutive_failures = 0, failing_since = NULL, failing_notified_at = NULL, next_attempt_at = NULL`
      : Prisma.empty;
    await tx.$executeRaw`
      UPDATE audit_streams
         SET name = ${name}, settings = ${JSON.stringify(destination.settings)}::jsonb,
             credentials = ${JSON.stringify(destination.credentials)}::jsonb, paused = ${change.paused ?? current.paused},
             version = version + 1, updated_at = now() ${startSet} ${runReset}
       WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid`;

    const target = { type: "audit_stream" as const, id: streamId };
    if (edited) {
      await record(tx, {
        action: "audit_stream.updated",
        target,
        details: {
          ...(nameChanged ? { name: { from: current.name, to: name } } : {}),
          ...(labels.from !== labels.to ? { destination: labels } : {}),
          ...(changedSettings.length > 0 ? { changedSettings } : {}),
          ...(credentialsReplaced ? { credentialsReplaced: true as const } : {}),
        },
      });
    }
    if (pausing) await record(tx, { action: change.paused ? "audit_stream.paused" : "audit_stream.resumed", target, details: { name } });
    if (restart) await record(tx, { action: "audit_stream.restarted", target, details: { name, start: startLabel(restart) } });
  };
}

/** Refuses an address the outbound policy will not send to, before anything is written (400). */
export async function requireSendableAddress(destination: Destination, outbound: Outbound): Promise<void> {
  const refusal = await outbound.checkDestinationAddress(destination);
  if (refusal) throw new DomainError("BAD_REQUEST", refusal);
}

/** The cursor columns (cursor_transaction_id, cursor_event_id, deliver_from) a start sets. "now":
 * past every event that can no longer appear behind the oldest transaction in flight (the
 * statement's own snapshot, as the delivery's reads take it); a date: back to the log's beginning,
 * passing over the events before that day (docs/decisions/0052-audit-streams.md). */
export function startColumns(start: StreamStart): Prisma.Sql {
  return start.from === "now"
    ? Prisma.sql`pg_snapshot_xmin(pg_current_snapshot()), '00000000-0000-0000-0000-000000000000'::uuid, NULL::timestamptz`
    : Prisma.sql`'0'::xid8, '00000000-0000-0000-0000-000000000000'::uuid, ${`${start.date}T00:00:00.000Z`}::timestamptz`;
}

// An organization's audit streams: create, edit (name, destination, pause and resume, start again
// from now or from a date), delete, send a test event, and the reads. The page's actions and the
// auditStream.* procedures both call these, so every rule is here once (docs/decisions/
// 0052-audit-streams.md). Each change is one transaction: the organization's row lock first, then
// the stream's row, then the check of the version the caller saw, the write, and its audit event.
// Whatever goes out to the network (the address check, the test event) runs outside it.
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { OrganizationAccess } from "~/access/organization-access.server";
import { billingBlocksPaidFeatures } from "~/access/billing-pause";
import { lockOrganization } from "~/access/organization-lock.server";
import { recordAs } from "~/audit/record.server";
import { destinationLabel, splitDestination, streamInputSchema, type Destination } from "~/audit-streams/destinations";
import type { SendResult } from "~/audit-streams/outbound/send-result";
import {
  changeStream,
  lockStream,
  OUTBOUND,
  requireSendableAddress,
  startColumns,
  type Outbound,
  type StreamChange,
} from "~/audit-streams/stream-change.server";
import { newWebhookSecret, parseOrRefuse } from "~/audit-streams/stream-input.server";
import { startLabel, streamStartSchema, type StreamStart } from "~/audit-streams/stream-start";
import { readRecentFailures, readStreamViews, type StreamDetail, type StreamView } from "~/audit-streams/stream-views.server";
import { prisma, type Tx } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { planHas } from "~/plans/catalog";

export type { Outbound, StreamChange, StreamDetail, StreamStart, StreamView };
export type { StreamFailureView } from "~/audit-streams/stream-views.server";

/** Access that may manage the organization's audit streams (owners and admins). */
export type StreamManager = OrganizationAccess<"auditStream:manage">;

/** What a create takes: a kind's fields as typed (checked here again, as the page's forms and the
 * procedures send them) and where to start, from now unless a replay date is given. */
export type StreamCreation = z.input<typeof streamInputSchema> & { start?: StreamStart };

/** At most this many streams per organization. */
export const MAX_STREAMS = 10;

/** Why delivery and changes are off for this organization: its plan lacks streaming, or its
 * billing pauses paid features. Reads and deletion stay open, so nobody is kept from removing a
 * destination and its credentials. */
export function streamingBlocker(access: StreamManager): "plan" | "billing" | null {
  if (!planHas(access.organization.planId, "auditStreaming")) return "plan";
  if (billingBlocksPaidFeatures(access.organization.billingState)) return "billing";
  return null;
}

/** Refuses a change while streamingBlocker says why not (403, translated). */
export function requireStreaming(access: StreamManager): void {
  const blocker = streamingBlocker(access);
  if (blocker === "plan") throw new DomainError("FORBIDDEN", "auditStreamChange.planLacksStreaming");
  if (blocker === "billing") throw new DomainError("FORBIDDEN", "auditStreamChange.billingBlocked");
}

export async function listStreams(access: StreamManager): Promise<StreamView[]> {
  return readStreamViews(access.organization.id);
}

export async function getStream(access: StreamManager, streamId: string): Promise<StreamDetail> {
  if (!isUuid(streamId)) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  const [view] = await readStreamViews(access.organization.id, streamId);
  if (!view) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  return { ...view, recentFailures: await readRecentFailures(access.organization.id, streamId) };
}

/**
 * Creates a stream, delivering from now unless a replay date is given. For a webhook, the Standard
 * Webhooks signing secret (generated when not given) is returned here and never again.
 */
export async function createStream(
  access: StreamManager,
  input: StreamCreation,
  outbound: Outbound = OUTBOUND,
): Promise<{ stream: StreamView; secret: string | null }> {
  requireStreaming(access);
  const { start: rawStart, ...fields } = input;
  const start = parseOrRefuse(streamStartSchema, rawStart ?? { from: "now" });
  const parsed = parseOrRefuse(streamInputSchema, fields);
  const { name, ...destinationFields } = parsed;
  const secret = destinationFields.kind === "webhook" ? (destinationFields.secret ?? newWebhookSecret()) : null;
  const destination = splitDestination(
    destinationFields.kind === "webhook" ? { ...destinationFields, secret: secret ?? undefined } : destinationFields,
  );
  await requireSendableAddress(destination, outbound);
  const organizationId = access.organization.id;
  const id = uuidv7();
  const stream = await prisma.$transaction(async (tx) => {
    // Creators of one organization queue on its row: the count below holds until we commit.
    await lockOrganization(tx, organizationId);
    const count = await tx.auditStream.count({ where: { organizationId } });
    if (count >= MAX_STREAMS) throw new DomainError("CONFLICT", "auditStreamChange.limitReached", { params: { limit: MAX_STREAMS } });
    await tx.$executeRaw`
      INSERT INTO audit_streams (organization_id, id, name, kind, settings, credentials, created_by_user_id,
                                 cursor_transaction_id, cursor_event_id, deliver_from)
      SELECT ${organizationId}::uuid, ${id}::uuid, ${name}, ${destination.kind}, ${JSON.stringify(destination.settings)}::jsonb,
             ${JSON.stringify(destination.credentials)}::jsonb, ${access.user.id}::uuid, ${startColumns(start)}`;
    await recordAs(access)(tx, {
      action: "audit_stream.created",
      target: { type: "audit_stream", id },
      details: { name, kind: destination.kind, destination: destinationLabel(destination), start: startLabel(start) },
    });
    return await viewIn(tx, organizationId, id);
  });
  return { stream, secret };
}

async function viewIn(tx: Tx, organizationId: string, streamId: string): Promise<StreamView> {
  const [view] = await readStreamViews(organizationId, streamId, tx);
  if (!view) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  return view;
}

/** Edits a stream made from `change.version`; a stale version is a 409 and changes nothing. */
export async function updateStream(
  access: StreamManager,
  streamId: string,
  change: StreamChange,
  outbound: Outbound = OUTBOUND,
): Promise<StreamView> {
  requireStreaming(access);
  const organizationId = access.organization.id;
  const apply = await changeStream(organizationId, streamId, change, outbound);
  return prisma.$transaction(async (tx) => {
    const current = await lockStream(tx, organizationId, streamId);
    await apply(tx, current, recordAs(access));
    return await viewIn(tx, organizationId, streamId);
  });
}

/** Deletes a stream and its failures. Allowed whatever the plan: removing credentials is never blocked. */
export async function deleteStream(access: StreamManager, streamId: string): Promise<void> {
  const organizationId = access.organization.id;
  await prisma.$transaction(async (tx) => {
    const current = await lockStream(tx, organizationId, streamId);
    await tx.auditStream.delete({ where: { organizationId_id: { organizationId, id: streamId } } });
    await recordAs(access)(tx, {
      action: "audit_stream.deleted",
      target: { type: "audit_stream", id: streamId },
      details: { name: current.name, kind: current.kind },
    });
  });
}

/**
 * Sends one synthetic event (action `audit_stream.test`, never stored in the log) to the stream's
 * destination in a batch of type `audit.test`, and records the attempt and its outcome.
 */
export async function testStream(access: StreamManager, streamId: string, outbound: Outbound = OUTBOUND): Promise<SendResult> {
  requireStreaming(access);
  const organizationId = access.organization.id;
  if (!isUuid(streamId)) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  const stored = await prisma.auditStream.findUnique({
    where: { organizationId_id: { organizationId, id: streamId } },
    select: { name: true, kind: true, settings: true, credentials: true },
  });
  if (!stored) throw new DomainError("NOT_FOUND", "auditStreamChange.notFound");
  const destination = { kind: stored.kind, settings: stored.settings, credentials: stored.credentials } as Destination;
  const result = await outbound.sendBatch(destination, {
    organizationId,
    streamId,
    type: "audit.test",
    events: [
      {
        id: uuidv7(),
        createdAt: new Date().toISOString(),
        action: "audit_stream.test",
        actorKind: "user",
        actorId: access.user.id,
        actorName: access.user.name,
        targetType: "audit_stream",
        targetId: streamId,
        targetName: stored.name,
        details: { message: "A test event from KeyLedger. It is not part of the audit log." },
      },
    ],
  });
  await prisma.$transaction(async (tx) => {
    // A stream deleted while its test was out is a 404 here: the test of a stream that no longer
    // exists is not recorded.
    const current = await lockStream(tx, organizationId, streamId);
    await recordAs(access)(tx, {
      action: "audit_stream.tested",
      target: { type: "audit_stream", id: streamId },
      details: {
        name: current.name,
        outcome: result.ok ? "delivered" : result.failure,
        ...(result.status !== null ? { status: result.status } : {}),
      },
    });
  });
  return result;
}

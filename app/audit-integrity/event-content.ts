// What a digest seals of each event: the canonical JSON (app/lib/canonical-json.ts) of the stored
// record's facts, and its SHA-256. The facts are the columns the export writes that the row itself
// stores (not the names, looked up when read), plus the organization: every exported file can be
// checked offline against the digests. Not sealed: the correlation and idempotency ids (request
// bookkeeping, not part of what happened; not in the export), the content hash (derived) and the
// transaction id (the digests' order: moving an event in it shows as deleted from one digest and
// inserted elsewhere). docs/audit-digests.md is the format's public description.
import { hash } from "node:crypto";
import { canonicalJson } from "~/lib/canonical-json";

/** An event as a digest sees it: the stored record's facts. */
export interface SealedEvent {
  id: string;
  organizationId: string;
  /** Milliseconds since the epoch (created_at is stored to the millisecond). */
  createdAtMs: number;
  action: string;
  actorKind: string;
  actorId: string;
  targetType: string;
  targetId: string;
  /** The details as JSON.parse gives them. */
  details: unknown;
}

/** The event's canonical text: what its hash is of. */
export function canonicalEventText(event: SealedEvent): string {
  // canonicalJson of the nine facts, written out: their keys are fixed and already in canonical
  // order (action < actorId < actorKind < createdAt < details < id < organizationId < targetId <
  // targetType), so only the details need sorting. The same text, without sorting nine keys per
  // event: the digest job hashes 100,000 events a second (event-content.test.ts holds the two equal).
  const s = JSON.stringify;
  return (
    `{"action":${s(event.action)},"actorId":${s(event.actorId)},"actorKind":${s(event.actorKind)},` +
    `"createdAt":${s(new Date(event.createdAtMs).toISOString())},"details":${canonicalJson(event.details)},"id":${s(event.id)},` +
    `"organizationId":${s(event.organizationId)},"targetId":${s(event.targetId)},"targetType":${s(event.targetType)}}`
  );
}

/** The same text by the general rule: what canonicalEventText must always equal. */
export function canonicalEventTextByRule(event: SealedEvent): string {
  return canonicalJson({
    action: event.action,
    actorId: event.actorId,
    actorKind: event.actorKind,
    createdAt: new Date(event.createdAtMs).toISOString(),
    details: event.details,
    id: event.id,
    organizationId: event.organizationId,
    targetId: event.targetId,
    targetType: event.targetType,
  });
}

/** SHA-256 of the event's canonical text (UTF-8), 32 bytes. */
export function eventSha256(event: SealedEvent): Buffer {
  return hash("sha256", canonicalEventText(event), "buffer");
}

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A uuid as JSON: nothing in it needs escaping (anything else goes through JSON.stringify). */
const uuidJson = (value: string) => (UUID.test(value) ? `"${value}"` : JSON.stringify(value));

/** The event's canonical text: what its hash is of. The canonical JSON of the object
 * {action, actorId, actorKind, createdAt, details, id, organizationId, targetId, targetType}, its
 * members written straight in their sorted order (the verifier hashes a million of these; only the
 * details need the general canonicalJson). */
export function canonicalEventText(event: SealedEvent): string {
  return (
    `{"action":${JSON.stringify(event.action)},"actorId":${JSON.stringify(event.actorId)},` +
    `"actorKind":${JSON.stringify(event.actorKind)},"createdAt":"${new Date(event.createdAtMs).toISOString()}",` +
    `"details":${canonicalJson(event.details)},"id":${uuidJson(event.id)},` +
    `"organizationId":${uuidJson(event.organizationId)},"targetId":${JSON.stringify(event.targetId)},` +
    `"targetType":${JSON.stringify(event.targetType)}}`
  );
}

/** SHA-256 of the event's canonical text (UTF-8), 32 bytes. */
export function eventSha256(event: SealedEvent): Buffer {
  return hash("sha256", canonicalEventText(event), "buffer");
}

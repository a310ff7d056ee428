// The checks of one digest that need no event: its document parses, the row's columns say what
// the signed document says, the signature holds under a trusted key, the link to its predecessor,
// and the stored entries are the ones the document commits to (docs/decisions/0062-audit-verification.md).
// Pure: verify.server.ts reads the rows and the log and calls these.
import type { KeyObject } from "node:crypto";
import { DIGEST_FORMAT, decodeEntries, digestSha256, sha256Hex, type DigestDocument, type DigestEntry } from "./digest-document";
import { signatureHolds } from "./signing-keys";
import { samePosition } from "./stream-position";
import type { Finding } from "./verdict";

/** A row of audit_digests as the verifier reads it (entries apart: read one digest at a time). */
export interface DigestRow {
  sequence: number;
  period_start: Date | null;
  period_end: Date;
  last_transaction_id: string;
  last_event_id: string;
  horizon: string;
  event_count: number;
  key_id: string;
  document: string;
  signature: Buffer;
}

/** A digest whose document parsed: the row it came from and what it signed. */
export interface ReadDigest {
  row: DigestRow;
  document: DigestDocument;
}

const isPosition = (value: unknown) =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { transactionId?: unknown }).transactionId === "string" &&
  /^\d{1,20}$/.test((value as { transactionId: string }).transactionId) &&
  typeof (value as { eventId?: unknown }).eventId === "string";

/** The row's document, or null when it is not a digest document of this organization's format. */
export function parseDocument(text: string, organizationId: string): DigestDocument | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const doc = value as Partial<DigestDocument> | null;
  if (!doc || typeof doc !== "object" || doc.format !== DIGEST_FORMAT || doc.organizationId !== organizationId) return null;
  if (!Number.isSafeInteger(doc.sequence) || (doc.sequence ?? 0) < 1 || !Number.isSafeInteger(doc.eventCount)) return null;
  if (!isPosition(doc.last) || (doc.after !== null && !isPosition(doc.after))) return null;
  if (typeof doc.horizon !== "string" || !/^\d{1,20}$/.test(doc.horizon) || typeof doc.periodEnd !== "string") return null;
  if (typeof doc.eventsSha256 !== "string" || typeof doc.keyId !== "string") return null;
  if (doc.previousDigestSha256 !== null && typeof doc.previousDigestSha256 !== "string") return null;
  return doc as DigestDocument;
}

/** The columns of the row that say something else than its signed document. */
export function disagreeingColumns(row: DigestRow, doc: DigestDocument): string[] {
  const columns: string[] = [];
  if (row.sequence !== doc.sequence) columns.push("sequence");
  if (row.period_end.toISOString() !== doc.periodEnd) columns.push("period_end");
  if ((row.period_start?.toISOString() ?? null) !== doc.periodStart) columns.push("period_start");
  if (!samePosition({ transactionId: row.last_transaction_id, eventId: row.last_event_id }, doc.last)) columns.push("last");
  if (row.horizon !== doc.horizon) columns.push("horizon");
  if (row.event_count !== doc.eventCount) columns.push("event_count");
  if (row.key_id !== doc.keyId) columns.push("key_id");
  return columns;
}

/** The signature finding, if any: a key we do not trust, or a signature that does not hold. */
export function signatureFinding(digest: ReadDigest, keys: ReadonlyMap<string, KeyObject>): Finding | null {
  const { document, row } = digest;
  const key = keys.get(document.keyId);
  if (!key) return { kind: "unknown-key", sequence: document.sequence, keyId: document.keyId };
  return signatureHolds(key, row.document, row.signature)
    ? null
    : { kind: "bad-signature", sequence: document.sequence, keyId: document.keyId };
}

/**
 * The digests signed with a key the chain had already moved on from, by sequence: a rotation
 * replaces a key for good (decision 0061), so a replaced key signing again, or any key but the
 * current one once the current one has signed, is someone holding a retired key's private half
 * (the reason to rotate) sealing what they forged. A digest so named is passed over (it retires
 * no key), so the genuine digests after it are not named.
 */
export function replacedKeyFindings(
  chain: readonly DigestDocument[],
  keys: readonly { id: string; status: "current" | "retired" }[],
): Map<number, Finding> {
  const currentKeyId = keys.find((key) => key.status === "current")?.id;
  const trusted = new Set(keys.map((key) => key.id));
  const found = new Map<number, Finding>();
  const replaced = new Set<string>();
  let currentHasSigned = false;
  let previous: DigestDocument | null = null;
  for (const document of chain) {
    // A key nobody trusts is its own finding (unknown-key), and no rotation.
    if (!trusted.has(document.keyId)) continue;
    if (replaced.has(document.keyId) || (currentHasSigned && document.keyId !== currentKeyId)) {
      found.set(document.sequence, { kind: "key-replaced", sequence: document.sequence, keyId: document.keyId });
      continue;
    }
    if (previous && previous.keyId !== document.keyId) replaced.add(previous.keyId);
    if (document.keyId === currentKeyId) currentHasSigned = true;
    previous = document;
  }
  return found;
}

/**
 * The link of a digest to the one before it in the walk (`previous`, null when it is the first
 * there is): the digests between them missing, or the link broken. The first digest must be
 * number 1 and start the log.
 */
export function linkFinding(digest: DigestDocument, previous: ReadDigest | null): Finding | null {
  const expected = previous ? previous.document.sequence + 1 : 1;
  if (digest.sequence > expected) return { kind: "digest-missing", firstSequence: expected, lastSequence: digest.sequence - 1, events: 0 };
  if (!previous)
    return digest.after === null && digest.previousDigestSha256 === null ? null : { kind: "chain-broken", sequence: digest.sequence };
  const linked = samePosition(digest.after, previous.document.last) && digest.previousDigestSha256 === digestSha256(previous.row.document);
  return linked ? null : { kind: "chain-broken", sequence: digest.sequence };
}

/** The entries the document commits to, or null when the stored ones are not those. */
export function committedEntries(document: DigestDocument, stored: Buffer): DigestEntry[] | null {
  if (sha256Hex(stored) !== document.eventsSha256) return null;
  let entries: DigestEntry[];
  try {
    entries = decodeEntries(stored);
  } catch {
    return null;
  }
  return entries.length === document.eventCount ? entries : null;
}

// A digest: the signed statement that an organization's log, between two positions of the stream
// order, held exactly these events with exactly these contents (docs/audit-digests.md,
// docs/decisions/0061-audit-digests.md). Pure: the writer (seal.server.ts), the verifier and the
// export's manifest all read and write digests through this file.
//
// The stream order is (COALESCE(transaction_id, '0'), id), the order audit streams deliver in
// (docs/decisions/0052-audit-streams.md). Digest n covers the events after `after` (the previous
// digest's `last`) up to and including `last`; every event below `horizon` (the oldest
// transaction still running when the digest was made) had committed by then, so no event can later
// appear inside a closed digest's range except by someone writing the table behind the app.
import { createHash } from "node:crypto";
import { canonicalJson } from "~/lib/canonical-json";

export const DIGEST_FORMAT = "keyledger-audit-digest/1";

/** A position in the stream order. `transactionId` is an xid8 as decimal text ("0" for events older than it). */
export interface StreamPosition {
  transactionId: string;
  eventId: string;
}

/** The signed document. Its canonical JSON is what the signature and the next digest's link are over. */
export interface DigestDocument {
  format: typeof DIGEST_FORMAT;
  organizationId: string;
  /** 1, 2, 3… per organization, without gaps. */
  sequence: number;
  /** The previous digest's periodEnd; null for the first digest (the log from its beginning). */
  periodStart: string | null;
  /** When the period was closed (the horizon was read), ISO 8601 UTC. */
  periodEnd: string;
  /** The previous digest's last position; null for the first. */
  after: StreamPosition | null;
  /** The position of the last event this digest covers. */
  last: StreamPosition;
  /** Transactions below this id had all ended when the digest was made (pg_snapshot_xmin). */
  horizon: string;
  eventCount: number;
  /** SHA-256 (hex) of the entries (encodeEntries). */
  eventsSha256: string;
  /** SHA-256 (hex) of the previous digest's canonical document; null for the first. */
  previousDigestSha256: string | null;
  /** The signing key's id (signingKeyId). */
  keyId: string;
}

/** One event in a digest: its id, creation time and content hash. */
export interface DigestEntry {
  eventId: string;
  createdAtMs: number;
  sha256: Buffer;
}

/** Bytes per entry: the id (16), created_at in ms (8, big-endian signed), the SHA-256 (32). */
export const ENTRY_BYTES = 56;

function uuidBytes(uuid: string, into: Buffer, at: number): void {
  const hex = uuid.replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`Not a UUID: ${uuid}`);
  into.write(hex, at, 16, "hex");
}

function uuidText(buf: Buffer, at: number): string {
  const hex = buf.toString("hex", at, at + 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The entries as stored and hashed: ENTRY_BYTES per event, in stream order. */
export function encodeEntries(entries: readonly DigestEntry[]): Buffer {
  const buf = Buffer.alloc(entries.length * ENTRY_BYTES);
  entries.forEach((entry, i) => {
    const at = i * ENTRY_BYTES;
    uuidBytes(entry.eventId, buf, at);
    buf.writeBigInt64BE(BigInt(entry.createdAtMs), at + 16);
    entry.sha256.copy(buf, at + 24, 0, 32);
  });
  return buf;
}

/** The entries back from their bytes; throws when the length is not a whole number of entries. */
export function decodeEntries(buf: Buffer): DigestEntry[] {
  if (buf.length % ENTRY_BYTES !== 0) throw new Error("The entries' length is not a multiple of 56 bytes.");
  const entries: DigestEntry[] = [];
  for (let at = 0; at < buf.length; at += ENTRY_BYTES) {
    entries.push({
      eventId: uuidText(buf, at),
      createdAtMs: Number(buf.readBigInt64BE(at + 16)),
      sha256: buf.subarray(at + 24, at + 56),
    });
  }
  return entries;
}

export function sha256Hex(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** The exact text that is signed and linked: the document's canonical JSON. */
export function documentText(document: DigestDocument): string {
  return canonicalJson(document);
}

/** The hash the next digest links to. */
export function digestSha256(documentText: string): string {
  return sha256Hex(documentText);
}

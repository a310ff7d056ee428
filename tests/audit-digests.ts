// The audit digests as the tests read them: an organization's rows, their documents parsed, and a
// check that a chain is whole (sequence without gaps, each digest continuing its predecessor).
import { expect } from "vitest";
import { decodeEntries, digestSha256, type DigestDocument, type DigestEntry } from "~/audit-integrity/digest-document";
import { pool } from "~/db.server";

export interface StoredDigest {
  sequence: number;
  document: DigestDocument;
  text: string;
  signature: Buffer;
  entries: DigestEntry[];
}

/** The organization's digests, oldest first. */
export async function digestsOf(organizationId: string): Promise<StoredDigest[]> {
  const { rows } = await pool().query<{ sequence: number; document: string; signature: Buffer; entries: Buffer }>(
    "SELECT sequence, document, signature, entries FROM audit_digests WHERE organization_id = $1 ORDER BY sequence",
    [organizationId],
  );
  return rows.map((row) => ({
    sequence: row.sequence,
    document: JSON.parse(row.document) as DigestDocument,
    text: row.document,
    signature: row.signature,
    entries: decodeEntries(row.entries),
  }));
}

/** Every event id the digests hold, in order. */
export const sealedIds = (digests: StoredDigest[]) => digests.flatMap((digest) => digest.entries.map((entry) => entry.eventId));

/** The chain is whole: 1..n, each digest's `after`, `periodStart` and link are its predecessor's. */
export function expectWholeChain(digests: StoredDigest[]): void {
  digests.forEach((digest, i) => {
    expect(digest.sequence).toBe(i + 1);
    expect(digest.document.sequence).toBe(i + 1);
    expect(digest.document.eventCount).toBe(digest.entries.length);
    const previous = digests[i - 1];
    expect(digest.document.after).toEqual(previous ? previous.document.last : null);
    expect(digest.document.periodStart).toBe(previous ? previous.document.periodEnd : null);
    expect(digest.document.previousDigestSha256).toBe(previous ? digestSha256(previous.text) : null);
  });
  const ids = sealedIds(digests);
  expect(new Set(ids).size).toBe(ids.length);
}

/** The job of the organization's digest that waits in the queue, if any. */
export async function waitingDigestJobs(organizationId: string): Promise<number> {
  const { rows } = await pool().query<{ count: number }>("SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE key = $1", [
    `audit-digest:${organizationId}`,
  ]);
  return rows[0]!.count;
}

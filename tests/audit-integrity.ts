// Test helpers for the audit log's tamper evidence (issue 34): a sealed log of a few digests, the
// digests as stored, a check that a chain is whole, a fresh signing key, and the database owner's
// hand (the login that ran the migrations, which the append-only grants do not stop) to tamper
// with the log as an operator could. Events are recorded with the streams' recordChanges.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { decodeEntries, digestSha256, type DigestDocument, type DigestEntry } from "~/audit-integrity/digest-document";
import { currentSigningKey, type SigningKey } from "~/audit-integrity/signing-keys";
import { sealOrganization } from "~/audit-integrity/seal.server";
import { pool } from "~/db.server";
import { withClient } from "../scripts/lib/pg-client.ts";
import { recordChanges } from "./audit-streams";
import { createOrganizationWith, createUser } from "./factories";

/** A statement as the database's owner: what the app's role may not do to the log and its digests. */
export function asOwner<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, values: unknown[] = []) {
  return withClient(process.env.DATABASE_URL!, (client) => client.query<R>(sql, values));
}

/** A new signing key, as AUDIT_SIGNING_KEY would give it. */
export function freshKey(): SigningKey {
  const { privateKey } = generateKeyPairSync("ed25519");
  return currentSigningKey({ AUDIT_SIGNING_KEY: privateKey })!;
}

/** Seals the organization's log now, with the file's signing key. */
export async function seal(organizationId: string) {
  return sealOrganization(organizationId, currentSigningKey()!);
}

/** An organization whose log has `digests` digests of `perDigest` events each; the event ids per digest. */
export async function sealedOrganization(digests = 3, perDigest = 3) {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  const events: string[][] = [];
  for (let d = 0; d < digests; d++) {
    events.push(await recordChanges(organization.id, user.id, perDigest));
    await seal(organization.id);
  }
  return { user, organization, events };
}

/** The event's creation time as a verdict names it. */
export async function createdAtOf(organizationId: string, eventId: string): Promise<string> {
  const { rows } = await asOwner<{ created_at: Date }>("SELECT created_at FROM audit_events WHERE organization_id = $1 AND id = $2", [
    organizationId,
    eventId,
  ]);
  return rows[0]!.created_at.toISOString();
}

/** A forged copy of an event: a new id, the transaction id given (null: none), inserted as the owner. */
export async function forgeEvent(organizationId: string, copyOf: string, transactionId: string | null): Promise<string> {
  const id = uuidv7();
  await asOwner(
    `INSERT INTO audit_events
     SELECT (jsonb_populate_record(NULL::audit_events,
               to_jsonb(e) || jsonb_build_object('id', $3::text, 'transaction_id', $4::text, 'idempotency_key', NULL,
                                                 'correlation_id', $5::text))).*
     FROM audit_events e WHERE organization_id = $1 AND id = $2`,
    [organizationId, copyOf, id, transactionId, randomUUID()],
  );
  return id;
}

/** A transaction id of an event, as text. */
export async function transactionIdOf(organizationId: string, eventId: string): Promise<string> {
  const { rows } = await asOwner<{ transaction_id: string }>(
    "SELECT transaction_id::text AS transaction_id FROM audit_events WHERE organization_id = $1 AND id = $2",
    [organizationId, eventId],
  );
  return rows[0]!.transaction_id;
}

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

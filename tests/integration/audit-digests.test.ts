// The audit digests' writer and schedule on this file's PostgreSQL (docs/decisions/0061-audit-digests.md):
// the first digest at once, nothing for nothing new, the next interval's digest linked to the one
// before, an event of a transaction open across the seal left for the next digest, racing writers
// and workers without duplicates or gaps, large periods split, signatures that hold with the
// published key (and with a retired one after a rotation), the cascade with the organization, the
// app role's missing UPDATE/DELETE, and the check for digests ahead of a restored database.
import { createPublicKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { digestsAheadOfDatabase, queueDueDigests } from "~/audit-integrity/digest-schedule.server";
import { encodeEntries, sha256Hex } from "~/audit-integrity/digest-document";
import { eventSha256 } from "~/audit-integrity/event-content";
import {
  encodeSealedRows,
  entryOf,
  SEALED_EVENTS_SQL,
  sealOrganization,
  START_POSITION,
  type SealedEventRow,
} from "~/audit-integrity/seal.server";
import { configuredKeys, currentSigningKey, publishedKey, signatureHolds } from "~/audit-integrity/signing-keys";
import { auditDigestTasks } from "~/audit-integrity/tasks.server";
import { pool, prisma } from "~/db.server";
import { runDueJobs } from "~/jobs/queue.server";
import { withClient } from "../../scripts/lib/pg-client.ts";
import { digestsOf, expectWholeChain, freshKey, sealedIds, waitingDigestJobs } from "../audit-integrity";
import { openTransactionWithEvent, recordChanges } from "../audit-streams";
import { createOrganizationWith, createUser } from "../factories";

const key = currentSigningKey()!;

async function organizationWithEvents(count: number) {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  const ids = await recordChanges(organization.id, user.id, count);
  return { organizationId: organization.id, userId: user.id, ids };
}

/** Queues the due digests and runs the queue once: what a worker does after a tick. */
async function tickAndRun(intervalSeconds = 3600) {
  await queueDueDigests(intervalSeconds);
  await runDueJobs(auditDigestTasks);
}

describe("the digest schedule", () => {
  it("makes an organization's first digest at once, over its whole log, and nothing while nothing is new", async () => {
    const { organizationId, ids } = await organizationWithEvents(3);
    await queueDueDigests(3600);
    expect(await waitingDigestJobs(organizationId)).toBe(1);
    // A second tick (another instance) queues it once.
    await queueDueDigests(3600);
    expect(await waitingDigestJobs(organizationId)).toBe(1);
    await runDueJobs(auditDigestTasks);
    const digests = await digestsOf(organizationId);
    expect(digests).toHaveLength(1);
    expect(sealedIds(digests)).toEqual(ids);
    expect(digests[0]!.document).toMatchObject({ sequence: 1, periodStart: null, after: null, eventCount: 3, keyId: key.id });
    // Nothing new: not due even once its interval has passed, and the writer itself adds nothing.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await queueDueDigests(1);
    expect(await waitingDigestJobs(organizationId)).toBe(0);
    expect(await sealOrganization(organizationId, key)).toEqual({ digests: 0, events: 0 });
    expect(await digestsOf(organizationId)).toHaveLength(1);
  });

  it("waits for the next interval before the next digest, which continues the chain", async () => {
    const { organizationId, userId } = await organizationWithEvents(2);
    await tickAndRun(3600);
    const later = await recordChanges(organizationId, userId, 2);
    // Within the same hour: not due.
    await queueDueDigests(3600);
    expect(await waitingDigestJobs(organizationId)).toBe(0);
    // One-second intervals: due once the first digest's second has passed.
    while ((await waitingDigestJobs(organizationId)) === 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await queueDueDigests(1);
    }
    await runDueJobs(auditDigestTasks);
    const digests = await digestsOf(organizationId);
    expect(digests).toHaveLength(2);
    expectWholeChain(digests);
    expect(digests[1]!.entries.map((entry) => entry.eventId)).toEqual(later);
  });

  it("leaves an event of a transaction open across the seal for the next digest", async () => {
    const { organizationId, userId, ids } = await organizationWithEvents(1);
    const held = await openTransactionWithEvent(organizationId, userId);
    const after = await recordChanges(organizationId, userId, 1);
    await sealOrganization(organizationId, key);
    // Below the open transaction only: the event committed after it waits too (stream order).
    expect(sealedIds(await digestsOf(organizationId))).toEqual(ids);
    await held.commit();
    await sealOrganization(organizationId, key);
    const digests = await digestsOf(organizationId);
    expectWholeChain(digests);
    expect(digests).toHaveLength(2);
    expect(digests[1]!.entries.map((entry) => entry.eventId).sort()).toEqual([held.eventId, ...after].sort());
  });

  it("writes each digest once when two writers, and two ticks and two workers, race", async () => {
    const { organizationId, ids } = await organizationWithEvents(9);
    await Promise.all([sealOrganization(organizationId, key, { maxEvents: 2 }), sealOrganization(organizationId, key, { maxEvents: 2 })]);
    let digests = await digestsOf(organizationId);
    expectWholeChain(digests);
    expect(sealedIds(digests)).toEqual(ids);

    const other = await organizationWithEvents(4);
    await Promise.all([queueDueDigests(3600), queueDueDigests(3600)]);
    await Promise.all([runDueJobs(auditDigestTasks), runDueJobs(auditDigestTasks)]);
    digests = await digestsOf(other.organizationId);
    expectWholeChain(digests);
    expect(sealedIds(digests)).toEqual(other.ids);
  });

  it("splits more events than a digest holds into several digests", async () => {
    const { organizationId, ids } = await organizationWithEvents(7);
    expect(await sealOrganization(organizationId, key, { maxEvents: 3 })).toEqual({ digests: 3, events: 7 });
    const digests = await digestsOf(organizationId);
    expectWholeChain(digests);
    expect(digests.map((digest) => digest.document.eventCount)).toEqual([3, 3, 1]);
    expect(sealedIds(digests)).toEqual(ids);
  });
});

describe("a digest", () => {
  it("holds the entries encodeEntries makes of entryOf's rows (the writer's fast path equals the shared functions)", async () => {
    const { organizationId } = await organizationWithEvents(5);
    const values = [organizationId, START_POSITION.transactionId, START_POSITION.eventId, "18446744073709551615", 100];
    const objects = (await pool().query<SealedEventRow>(SEALED_EVENTS_SQL, values)).rows;
    const arrays = (await pool().query<unknown[]>({ text: SEALED_EVENTS_SQL, values, rowMode: "array" })).rows;
    expect(objects).toHaveLength(5);
    const shared = encodeEntries(objects.map((row) => entryOf(organizationId, row)));
    expect((await encodeSealedRows(organizationId, arrays)).equals(shared)).toBe(true);
  });

  it("is signed with the published key, and its entries are the events' ids, times and content hashes", async () => {
    const { organizationId } = await organizationWithEvents(3);
    await sealOrganization(organizationId, key);
    const [digest] = await digestsOf(organizationId);
    const published = configuredKeys().map(publishedKey);
    expect(published).toEqual([expect.objectContaining({ id: key.id, alg: "Ed25519", status: "current" })]);
    expect(signatureHolds(createPublicKey(published[0]!.publicKey), digest!.text, digest!.signature)).toBe(true);
    expect(signatureHolds(freshKey().publicKey, digest!.text, digest!.signature)).toBe(false);
    expect(digest!.document.eventsSha256).toBe(sha256Hex(encodeEntries(digest!.entries)));
    const events = await prisma.auditEvent.findMany({ where: { organizationId }, orderBy: { id: "asc" } });
    const byId = new Map(events.map((event) => [event.id, event]));
    for (const entry of digest!.entries) {
      const event = byId.get(entry.eventId)!;
      expect(entry.createdAtMs).toBe(event.createdAt.getTime());
      const content = { ...event, createdAtMs: event.createdAt.getTime(), details: event.details };
      expect(entry.sha256.equals(eventSha256(content))).toBe(true);
    }
  });

  it("signed before a key rotation still verifies with the retired key; later ones carry the new key and continue the chain", async () => {
    const { organizationId, userId } = await organizationWithEvents(2);
    const oldKey = freshKey();
    await sealOrganization(organizationId, oldKey);
    await recordChanges(organizationId, userId, 1);
    const newKey = freshKey();
    await sealOrganization(organizationId, newKey);
    const digests = await digestsOf(organizationId);
    expectWholeChain(digests);
    const keys = configuredKeys({ AUDIT_SIGNING_KEY: newKey.privateKey, AUDIT_RETIRED_KEYS: [oldKey.publicKey] });
    expect(keys.map((k) => [k.id, k.status])).toEqual([
      [newKey.id, "current"],
      [oldKey.id, "retired"],
    ]);
    for (const digest of digests) {
      const signer = keys.find((k) => k.id === digest.document.keyId)!;
      expect(signatureHolds(signer.key, digest.text, digest.signature)).toBe(true);
    }
    expect(digests.map((digest) => digest.document.keyId)).toEqual([oldKey.id, newKey.id]);
  });

  it("goes with its organization; another organization's chain is untouched", async () => {
    const gone = await organizationWithEvents(2);
    const kept = await organizationWithEvents(2);
    await sealOrganization(gone.organizationId, key);
    await sealOrganization(kept.organizationId, key);
    const keptBefore = await digestsOf(kept.organizationId);
    await prisma.organization.delete({ where: { id: gone.organizationId } });
    expect(await digestsOf(gone.organizationId)).toEqual([]);
    expect(await digestsOf(kept.organizationId)).toEqual(keptBefore);
    // A job queued before the deletion finds nothing to seal and ends quietly.
    expect(await sealOrganization(gone.organizationId, key)).toEqual({ digests: 0, events: 0 });
  });

  it("may be read and added by the app's role, never changed or removed (42501)", async () => {
    const { organizationId } = await organizationWithEvents(1);
    await sealOrganization(organizationId, key);
    const before = await digestsOf(organizationId);
    for (const sql of [
      "UPDATE audit_digests SET event_count = 0 WHERE organization_id = $1",
      "UPDATE audit_digests SET document = '{}' WHERE organization_id = $1",
      "DELETE FROM audit_digests WHERE organization_id = $1",
    ]) {
      await expect(pool().query(sql, [organizationId]), sql).rejects.toMatchObject({ code: "42501" });
    }
    await expect(pool().query("TRUNCATE audit_digests")).rejects.toMatchObject({ code: "42501" });
    expect(await digestsOf(organizationId)).toEqual(before);
  });
});

describe("digests ahead of the database (a logical restore)", () => {
  it("are counted once a newest digest's horizon is at or past the next transaction id", async () => {
    const { organizationId } = await organizationWithEvents(1);
    await sealOrganization(organizationId, key);
    expect(await digestsAheadOfDatabase()).toBe(0);
    // As the table's owner: what a dump restored into a fresh server looks like to the app.
    await withClient(process.env.DATABASE_URL!, (owner) =>
      owner.query(
        `UPDATE audit_digests SET horizon = (pg_snapshot_xmax(pg_current_snapshot())::text::numeric + 1000000)::text::xid8
          WHERE organization_id = $1`,
        [organizationId],
      ),
    );
    expect(await digestsAheadOfDatabase()).toBe(1);
    await withClient(process.env.DATABASE_URL!, (owner) =>
      owner.query("DELETE FROM audit_digests WHERE organization_id = $1", [organizationId]),
    );
  });
});

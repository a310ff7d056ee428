// Verification of an organization's audit log against its signed digests (issue 34, deliverable 2;
// docs/decisions/0062-audit-verification.md). Each tampering is done as the database owner, which
// the append-only grants do not stop, and must be named exactly, with nothing else reported.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { documentText, type DigestDocument } from "~/audit-integrity/digest-document";
import { configuredKeys, currentSigningKey, signText, signingKeyId, type SigningKey } from "~/audit-integrity/signing-keys";
import { sealOrganization } from "~/audit-integrity/seal.server";
import { verifyAuditLog } from "~/audit-integrity/verify.server";
import { prisma } from "~/db.server";
import { asOwner, createdAtOf, forgeEvent, freshKey, seal, sealedOrganization, transactionIdOf } from "../audit-integrity";
import { recordChanges } from "../audit-streams";
import { createOrganizationWith, createUser } from "../factories";

const HOUR = 60 * 60 * 1000;

/** The keys after a rotation to `current`: it signs from now on, the file's configured keys are retired. */
const rotatedTo = (current: Pick<SigningKey, "id" | "publicKey">) => [
  { id: current.id, key: current.publicKey, status: "current" as const },
  ...configuredKeys().map((key) => ({ ...key, status: "retired" as const })),
];

async function digestDocument(organizationId: string, sequence: number): Promise<DigestDocument> {
  const { rows } = await asOwner<{ document: string }>("SELECT document FROM audit_digests WHERE organization_id = $1 AND sequence = $2", [
    organizationId,
    sequence,
  ]);
  return JSON.parse(rows[0]!.document) as DigestDocument;
}

describe("verifying an untouched log", () => {
  it("reports intact with the digests and events it checked", async () => {
    const { organization } = await sealedOrganization();
    const verdict = await verifyAuditLog(organization.id);
    expect(verdict).toMatchObject({
      status: "intact",
      digestsChecked: 3,
      eventsChecked: 9,
      pendingEvents: 0,
      findings: [],
      moreFindings: 0,
    });
    expect(verdict.firstDigestAt).toEqual((await digestDocument(organization.id, 1)).periodEnd);
    expect(verdict.lastDigestAt).toEqual((await digestDocument(organization.id, 3)).periodEnd);
  });

  it("counts events recorded after the newest digest as pending, not as a failure", async () => {
    const { organization, user } = await sealedOrganization(2, 2);
    await recordChanges(organization.id, user.id, 3);
    expect(await verifyAuditLog(organization.id)).toMatchObject({ status: "intact", eventsChecked: 4, pendingEvents: 3, findings: [] });
  });

  it("says unsealed, not intact, without a key or before the first digest", async () => {
    const { organization } = await sealedOrganization(1, 1);
    expect(await verifyAuditLog(organization.id, { keys: [] })).toMatchObject({ status: "unsealed", reason: "no-key", findings: [] });
    const user = await createUser();
    const fresh = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    await recordChanges(fresh.id, user.id, 2);
    expect(await verifyAuditLog(fresh.id)).toMatchObject({ status: "unsealed", reason: "no-digest", pendingEvents: 2, findings: [] });
  });

  it("checks the digests whose period overlaps the days asked for, and none outside them", async () => {
    const { organization } = await sealedOrganization(2, 2);
    const today = new Date().toISOString().slice(0, 10);
    expect(await verifyAuditLog(organization.id, { from: today, to: today })).toMatchObject({ status: "intact", digestsChecked: 2 });
    // The first digest covers the log from its beginning: any earlier day is its.
    expect(await verifyAuditLog(organization.id, { to: "2001-01-01" })).toMatchObject({ status: "intact", digestsChecked: 1 });
    expect(await verifyAuditLog(organization.id, { from: "2999-01-01" })).toMatchObject({
      status: "unsealed",
      reason: "no-digest-in-range",
    });
  });
});

describe("tampering with events", () => {
  it("names an event whose details were altered", async () => {
    const { organization, events } = await sealedOrganization();
    const eventId = events[1]![0]!;
    await asOwner(`UPDATE audit_events SET details = details || '{"to":"member"}' WHERE organization_id = $1 AND id = $2`, [
      organization.id,
      eventId,
    ]);
    const verdict = await verifyAuditLog(organization.id);
    expect(verdict.status).toBe("tampered");
    expect(verdict.findings).toEqual([
      { kind: "event-altered", eventId, createdAt: await createdAtOf(organization.id, eventId), sequence: 2 },
    ]);
  });

  it("names an event whose actor was changed", async () => {
    const { organization, events } = await sealedOrganization();
    const eventId = events[2]![2]!;
    await asOwner("UPDATE audit_events SET actor_id = 'someone-else' WHERE organization_id = $1 AND id = $2", [organization.id, eventId]);
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "event-altered", eventId, createdAt: await createdAtOf(organization.id, eventId), sequence: 3 },
    ]);
  });

  it("names a deleted event with the time it was sealed with", async () => {
    const { organization, events } = await sealedOrganization();
    const eventId = events[0]![1]!;
    const createdAt = await createdAtOf(organization.id, eventId);
    await asOwner("DELETE FROM audit_events WHERE organization_id = $1 AND id = $2", [organization.id, eventId]);
    expect(await verifyAuditLog(organization.id)).toMatchObject({
      status: "tampered",
      findings: [{ kind: "event-deleted", eventId, createdAt, sequence: 1 }],
    });
  });

  it("names a forged event inserted into a sealed range under a real transaction id", async () => {
    const { organization, events } = await sealedOrganization();
    const original = events[0]![0]!;
    const forged = await forgeEvent(organization.id, original, await transactionIdOf(organization.id, original));
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "event-inserted", eventId: forged, createdAt: await createdAtOf(organization.id, forged), sequence: 1 },
    ]);
  });

  it("names a forged event with a made-up transaction id: an old one, none, or one never issued", async () => {
    const { organization, events } = await sealedOrganization();
    const original = events[1]![1]!;
    const createdAt = await createdAtOf(organization.id, original);
    const old = await forgeEvent(organization.id, original, "3");
    const none = await forgeEvent(organization.id, original, null);
    const future = await forgeEvent(organization.id, original, "9000000000000");
    const verdict = await verifyAuditLog(organization.id);
    expect(verdict.status).toBe("tampered");
    expect(verdict.findings).toHaveLength(3);
    expect(verdict.findings).toEqual(
      expect.arrayContaining([
        { kind: "event-inserted", eventId: old, createdAt, sequence: 1 },
        { kind: "event-inserted", eventId: none, createdAt, sequence: 1 },
        { kind: "event-inserted", eventId: future, createdAt, sequence: null },
      ]),
    );
  });
});

describe("moving a sealed event in the stream order", () => {
  it("names an event whose transaction id was changed as moved, not deleted and inserted", async () => {
    const { organization, events } = await sealedOrganization();
    const [first, second] = [events[0]![0]!, events[1]![1]!];
    await asOwner("UPDATE audit_events SET transaction_id = $3::xid8 WHERE organization_id = $1 AND id = $2", [
      organization.id,
      first,
      await transactionIdOf(organization.id, events[2]![0]!),
    ]);
    await asOwner("UPDATE audit_events SET transaction_id = NULL, details = '{}' WHERE organization_id = $1 AND id = $2", [
      organization.id,
      second,
    ]);
    const [firstAt, secondAt] = [await createdAtOf(organization.id, first), await createdAtOf(organization.id, second)];
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "event-moved", eventId: second, createdAt: secondAt, sequence: 2, foundIn: 1 },
      { kind: "event-altered", eventId: second, createdAt: secondAt, sequence: 2 },
      { kind: "event-moved", eventId: first, createdAt: firstAt, sequence: 1, foundIn: 3 },
    ]);
  });
});

describe("tampering with digests", () => {
  it("names a deleted middle digest and counts the events it covered, without calling them inserted", async () => {
    const { organization } = await sealedOrganization();
    await asOwner("DELETE FROM audit_digests WHERE organization_id = $1 AND sequence = 2", [organization.id]);
    expect(await verifyAuditLog(organization.id)).toMatchObject({
      status: "tampered",
      findings: [{ kind: "digest-missing", firstSequence: 2, lastSequence: 2, events: 3 }],
    });
  });

  it("names a deleted first digest", async () => {
    const { organization } = await sealedOrganization();
    await asOwner("DELETE FROM audit_digests WHERE organization_id = $1 AND sequence = 1", [organization.id]);
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "digest-missing", firstSequence: 1, lastSequence: 1, events: 3 },
    ]);
  });

  it("names the newest digests missing once their events wait longer than the job ever lets them", async () => {
    const { organization, events } = await sealedOrganization();
    await asOwner("DELETE FROM audit_digests WHERE organization_id = $1 AND sequence = 3", [organization.id]);
    // Right away the events are as any not sealed yet: pending.
    expect(await verifyAuditLog(organization.id)).toMatchObject({ status: "intact", pendingEvents: 3, findings: [] });
    // Three hours on (the interval is an hour: sealed within 2 h 10 min), they should have been.
    const later = await verifyAuditLog(organization.id, { now: new Date(Date.now() + 3 * HOUR), digestIntervalSeconds: 3600 });
    expect(later).toMatchObject({
      status: "tampered",
      pendingEvents: 3,
      findings: [
        { kind: "sealing-overdue", newestSequence: 2, overdueEvents: 3, oldestEventAt: await createdAtOf(organization.id, events[2]![0]!) },
      ],
    });
  });

  it("names every digest deleted, or made unreadable, for a verification of some days as for the whole log", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const later = { now: new Date(Date.now() + 3 * HOUR), digestIntervalSeconds: 3600 };
    const deleted = await sealedOrganization();
    await asOwner("DELETE FROM audit_digests WHERE organization_id = $1", [deleted.organization.id]);
    for (const range of [{}, { from: today }, { from: today, to: today }]) {
      expect(await verifyAuditLog(deleted.organization.id, { ...range, ...later })).toMatchObject({
        status: "tampered",
        findings: [{ kind: "sealing-overdue", newestSequence: null, overdueEvents: 9 }],
      });
    }
    const unreadable = await sealedOrganization(1, 1);
    await asOwner("UPDATE audit_digests SET document = '{}' WHERE organization_id = $1", [unreadable.organization.id]);
    expect(await verifyAuditLog(unreadable.organization.id, { from: today })).toMatchObject({
      status: "tampered",
      findings: [{ kind: "digest-row-mismatch", sequence: 1, documentSequence: null, columns: ["document"] }],
    });
  });

  it("names two rows whose documents and signatures were exchanged", async () => {
    const { organization } = await sealedOrganization();
    await asOwner(
      `UPDATE audit_digests d SET document = o.document, signature = o.signature
       FROM audit_digests o WHERE d.organization_id = $1 AND o.organization_id = $1 AND d.sequence IN (1, 2) AND o.sequence = 3 - d.sequence`,
      [organization.id],
    );
    const verdict = await verifyAuditLog(organization.id);
    expect(verdict.status).toBe("tampered");
    expect(verdict.findings).toEqual([
      { kind: "digest-row-mismatch", sequence: 1, documentSequence: 2, columns: expect.arrayContaining(["sequence", "last"]) },
      { kind: "digest-row-mismatch", sequence: 2, documentSequence: 1, columns: expect.arrayContaining(["sequence", "last"]) },
    ]);
  });

  it("names two rows whose sequence numbers were exchanged", async () => {
    const { organization } = await sealedOrganization();
    for (const [from, to] of [
      [2, 100],
      [3, 2],
      [100, 3],
    ]) {
      await asOwner("UPDATE audit_digests SET sequence = $3 WHERE organization_id = $1 AND sequence = $2", [organization.id, from, to]);
    }
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "digest-row-mismatch", sequence: 2, documentSequence: 3, columns: ["sequence"] },
      { kind: "digest-row-mismatch", sequence: 3, documentSequence: 2, columns: ["sequence"] },
    ]);
  });

  it("names a digest re-signed with another key that claims the real key's id", async () => {
    const { organization } = await sealedOrganization();
    const wrong = generateKeyPairSync("ed25519");
    const document = await digestDocument(organization.id, 2);
    const signature = signText({ id: document.keyId, ...wrong }, documentText(document));
    await asOwner("UPDATE audit_digests SET signature = $2 WHERE organization_id = $1 AND sequence = 2", [organization.id, signature]);
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "bad-signature", sequence: 2, keyId: currentSigningKey()!.id },
    ]);
  });

  it("names a digest re-signed with a key nobody configured", async () => {
    const { organization } = await sealedOrganization();
    const wrong = generateKeyPairSync("ed25519");
    const keyId = signingKeyId(wrong.publicKey);
    const document = { ...(await digestDocument(organization.id, 3)), keyId };
    const text = documentText(document);
    await asOwner("UPDATE audit_digests SET document = $2, key_id = $3, signature = $4 WHERE organization_id = $1 AND sequence = 3", [
      organization.id,
      text,
      keyId,
      signText({ id: keyId, ...wrong }, text),
    ]);
    expect((await verifyAuditLog(organization.id)).findings).toEqual([{ kind: "unknown-key", sequence: 3, keyId }]);
  });

  it("trusts a retired key's digests after a rotation", async () => {
    const { organization } = await sealedOrganization(2, 1);
    const rotated = generateKeyPairSync("ed25519");
    const keys = rotatedTo({ id: signingKeyId(rotated.publicKey), publicKey: rotated.publicKey });
    expect(await verifyAuditLog(organization.id, { keys })).toMatchObject({ status: "intact", findings: [] });
  });

  it("names a digest signed with a key that a rotation had already replaced (a leaked retired key)", async () => {
    const { organization, user } = await sealedOrganization(2, 1);
    const leaked = currentSigningKey()!;
    const rotated = freshKey();
    await recordChanges(organization.id, user.id, 1);
    await sealOrganization(organization.id, rotated);
    // Whoever holds the retired key's private half seals a forged event after the rotation.
    await recordChanges(organization.id, user.id, 1);
    await sealOrganization(organization.id, leaked);
    await recordChanges(organization.id, user.id, 1);
    await sealOrganization(organization.id, leaked);
    expect((await verifyAuditLog(organization.id, { keys: rotatedTo(rotated) })).findings).toEqual([
      { kind: "key-replaced", sequence: 4, keyId: leaked.id },
      { kind: "key-replaced", sequence: 5, keyId: leaked.id },
    ]);
  });

  it("names a digest signed with a retired key after the current key signed, though that organization never used the retired one", async () => {
    const user = await createUser();
    const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const [current, leaked] = [freshKey(), currentSigningKey()!];
    await recordChanges(organization.id, user.id, 1);
    await sealOrganization(organization.id, current);
    await recordChanges(organization.id, user.id, 1);
    await sealOrganization(organization.id, leaked);
    expect((await verifyAuditLog(organization.id, { keys: rotatedTo(current) })).findings).toEqual([
      { kind: "key-replaced", sequence: 2, keyId: leaked.id },
    ]);
  });

  it("names a broken link when a digest is re-signed with the real key but points elsewhere", async () => {
    const { organization } = await sealedOrganization();
    const document = { ...(await digestDocument(organization.id, 2)), previousDigestSha256: "0".repeat(64) };
    const text = documentText(document);
    const signature = signText(currentSigningKey()!, text);
    await asOwner("UPDATE audit_digests SET document = $2, signature = $3 WHERE organization_id = $1 AND sequence = 2", [
      organization.id,
      text,
      signature,
    ]);
    // Digest 3 links to the document digest 2 had: its link breaks as well.
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "chain-broken", sequence: 2 },
      { kind: "chain-broken", sequence: 3 },
    ]);
  });

  it("names altered entries", async () => {
    const { organization } = await sealedOrganization();
    await asOwner(
      "UPDATE audit_digests SET entries = overlay(entries placing '\\xff'::bytea from 30 for 1) WHERE organization_id = $1 AND sequence = 2",
      [organization.id],
    );
    expect((await verifyAuditLog(organization.id)).findings).toEqual([{ kind: "entries-altered", sequence: 2 }]);
  });

  it("names a row whose columns were edited", async () => {
    const { organization } = await sealedOrganization();
    await asOwner("UPDATE audit_digests SET event_count = 2 WHERE organization_id = $1 AND sequence = 1", [organization.id]);
    expect((await verifyAuditLog(organization.id)).findings).toEqual([
      { kind: "digest-row-mismatch", sequence: 1, documentSequence: 1, columns: ["event_count"] },
    ]);
  });
});

describe("an organization's deletion", () => {
  it("removes its digests with its log, and another organization still verifies intact", async () => {
    const gone = await sealedOrganization(2, 2);
    const kept = await sealedOrganization(2, 2);
    await prisma.organization.delete({ where: { id: gone.organization.id } });
    const { rows } = await asOwner<{ count: string }>("SELECT count(*)::text AS count FROM audit_digests WHERE organization_id = $1", [
      gone.organization.id,
    ]);
    expect(rows[0]!.count).toBe("0");
    expect(await verifyAuditLog(kept.organization.id)).toMatchObject({
      status: "intact",
      digestsChecked: 2,
      eventsChecked: 4,
      findings: [],
    });
    expect(await verifyAuditLog(gone.organization.id)).toMatchObject({ status: "unsealed", reason: "no-digest" });
  });
});

it("seals again after verification without disturbing the chain", async () => {
  const { organization, user } = await sealedOrganization(1, 2);
  await recordChanges(organization.id, user.id, 2);
  await seal(organization.id);
  expect(await verifyAuditLog(organization.id)).toMatchObject({ status: "intact", digestsChecked: 2, eventsChecked: 4 });
});

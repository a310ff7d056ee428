// apiKey.authenticate with secrets that name their organization (docs/decisions/0048-routed-secrets.md):
// a new secret is one statement naming (organization_id, secret_hash); a secret of the older format
// (52 characters) finds its organization in the lookup table first, or, issued by the previous
// release during a rolling upgrade (no lookup row), by its hash alone; a forged organization finds
// nothing; rotation and deletion leave no lookup row behind.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AUTHENTICATE_SQL } from "~/api-keys/authenticate-sql";
import { generateSecret, hashSecret } from "~/api-keys/secret.server";
import { authorizeOrganization } from "~/access/organization-access.server";
import { deleteAccount } from "~/accounts/account-deletion.server";
import { pool, prisma } from "~/db.server";
import { deleteOrganization } from "~/organizations/organizations.server";
import { authenticate, memberOfNewOrganization } from "../api-key-factories";
import { issueKey, revokeKey, rotateKey } from "../domain-calls";
import { TEST_PASSWORD } from "../factories";
import { insertLegacyKey, legacySecret, type LegacySecret } from "../legacy-secrets";

/** A key of the older format with the lookup row the migration gave it. */
async function migratedLegacyKey(organizationId: string, secret: LegacySecret = legacySecret()) {
  const id = await insertLegacyKey(pool(), { organizationId, secret, scopes: ["audit:view", "member:read"] });
  await pool().query(
    "INSERT INTO api_key_legacy_secrets (secret_hash, organization_id) SELECT secret_hash, organization_id FROM api_keys WHERE organization_id = $1 AND id = $2",
    [organizationId, id],
  );
  return { id, secret: secret.secret };
}

const lookupRows = async (organizationId: string) =>
  (await pool().query("SELECT 1 FROM api_key_legacy_secrets WHERE organization_id = $1", [organizationId])).rowCount;

/** The statements the app sends through the shared pool while `work` runs. */
async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(pool(), "query");
  try {
    await work();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

const scansOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(scansOf)];

describe("a secret issued today", () => {
  it("names its organization and authenticates in one statement by (organization_id, secret_hash)", async () => {
    const owner = await memberOfNewOrganization();
    const { key, secret } = await issueKey(owner.auth, owner.organization.id, { name: "routed", scopes: ["audit:view"] });
    expect(secret).toMatch(/^sk_[0-9A-Za-z]{73}$/);
    let answer: Awaited<ReturnType<typeof authenticate>> | undefined;
    expect(await statementsDuring(async () => (answer = await authenticate(secret, ["audit:view"])))).toBe(1);
    expect(answer).toMatchObject({ status: 200, json: { keyId: key.id, organizationId: owner.organization.id } });
    // It has no lookup row: nothing but the secret routes it.
    expect(await lookupRows(owner.organization.id)).toBe(0);
  });

  it("names the organization in every scan of api_keys (what routes it to one shard on Citus)", async () => {
    const owner = await memberOfNewOrganization();
    const { secret } = await issueKey(owner.auth, owner.organization.id, { name: "planned", scopes: ["audit:view"] });
    const client = await pool().connect();
    try {
      await client.query("BEGIN");
      // A handful of rows would be read whole otherwise. Which index serves it is the planner's
      // choice (the plain one on the hash, smaller, is as selective during the transition); what
      // matters is that every scan names the organization.
      await client.query("SET LOCAL enable_seqscan = off");
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${AUTHENTICATE_SQL}`, [
        hashSecret(secret),
        [],
        owner.organization.id,
      ]);
      await client.query("ROLLBACK");
      const scans = scansOf(rows[0]!["QUERY PLAN"][0].Plan).filter(
        (node) => node["Relation Name"] === "api_keys" && node["Node Type"].endsWith("Scan"),
      );
      expect(scans.length).toBeGreaterThanOrEqual(3);
      for (const scan of scans) {
        expect(`${scan["Index Cond"] ?? ""} ${scan.Filter ?? ""}`).toContain(`organization_id = '${owner.organization.id}'::uuid`);
      }
    } finally {
      client.release();
    }
  });

  it("naming another organization (forged, checksum recomputed) gets the one 401, as an unknown key does", async () => {
    const victim = await memberOfNewOrganization();
    await issueKey(victim.auth, victim.organization.id, { name: "victim", scopes: ["audit:view"] });
    const attacker = await memberOfNewOrganization();
    const { secret } = await issueKey(attacker.auth, attacker.organization.id, { name: "mine", scopes: ["audit:view"] });
    // The attacker's own random part, the victim's organization, a valid checksum.
    const forgedHead = secret.slice(0, 46) + generateSecret(victim.organization.id).secret.slice(46, 70);
    const { crc32 } = await import("node:zlib");
    let value = crc32(forgedHead);
    let checksum = "";
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (let i = 0; i < 6; i++) {
      checksum = alphabet[value % 62] + checksum;
      value = Math.floor(value / 62);
    }
    const forged = forgedHead + checksum;
    const unknown = await authenticate(generateSecret(randomUUID()).secret);
    const answer = await authenticate(forged);
    expect(answer.status).toBe(401);
    expect(answer.text).toBe(unknown.text);
    expect((await authenticate(secret)).status).toBe(200);
  });
});

describe("a secret of the older format (52 characters)", () => {
  it("with its lookup row authenticates: the lookup, then the same statement", async () => {
    const owner = await memberOfNewOrganization();
    const { id, secret } = await migratedLegacyKey(owner.organization.id);
    let answer: Awaited<ReturnType<typeof authenticate>> | undefined;
    expect(await statementsDuring(async () => (answer = await authenticate(secret, ["member:read"])))).toBe(2);
    expect(answer).toMatchObject({ status: 200, json: { keyId: id, organizationId: owner.organization.id } });
    expect((await authenticate(secret, ["billing:view"])).status).toBe(403);
    const row = await prisma.apiKey.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: owner.organization.id, id } },
      select: { lastUsedAt: true },
    });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("inserted the previous release's way, without a lookup row, still authenticates (by its hash alone)", async () => {
    const owner = await memberOfNewOrganization();
    const secret = legacySecret();
    const id = await insertLegacyKey(pool(), { organizationId: owner.organization.id, secret });
    let answer: Awaited<ReturnType<typeof authenticate>> | undefined;
    expect(await statementsDuring(async () => (answer = await authenticate(secret.secret, ["audit:view"])))).toBe(3);
    expect(answer).toMatchObject({ status: 200, json: { keyId: id, organizationId: owner.organization.id } });
  });

  it("unknown, expired or revoked gets the one 401, with or without a lookup row", async () => {
    const owner = await memberOfNewOrganization();
    const expired = legacySecret();
    await insertLegacyKey(pool(), { organizationId: owner.organization.id, secret: expired, expiresAt: new Date(Date.now() - 1000) });
    const revoked = await migratedLegacyKey(owner.organization.id);
    await revokeKey(owner.auth, owner.organization.id, revoked.id);
    const unknown = await authenticate(generateSecret(randomUUID()).secret);
    for (const secret of [legacySecret().secret, expired.secret, revoked.secret]) {
      const answer = await authenticate(secret);
      expect(answer.status).toBe(401);
      expect(answer.text).toBe(unknown.text);
    }
  });

  it("rotated, gives a secret that names the organization; the old one fails at once and its lookup row is gone", async () => {
    const owner = await memberOfNewOrganization();
    const old = await migratedLegacyKey(owner.organization.id);
    expect(await lookupRows(owner.organization.id)).toBe(1);
    const { key, secret } = await rotateKey(owner.auth, owner.organization.id, old.id);
    expect(key.id).toBe(old.id);
    expect(secret).toHaveLength(76);
    expect(secret.slice(0, 11)).toBe(key.prefix);
    expect((await authenticate(old.secret)).status).toBe(401);
    expect(await lookupRows(owner.organization.id)).toBe(0);
    expect(await statementsDuring(() => authenticate(secret))).toBe(1);
    expect((await authenticate(secret)).json).toMatchObject({ keyId: old.id, organizationId: owner.organization.id });
  });

  it("gives a malformed token no statement at all", async () => {
    const { secret } = legacySecret();
    const broken = secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A");
    expect(await statementsDuring(() => authenticate(broken))).toBe(0);
    expect(await statementsDuring(() => authenticate(`${secret}A`))).toBe(0);
  });
});

describe("an organization's deletion", () => {
  it("by its owner leaves no lookup row", async () => {
    const owner = await memberOfNewOrganization();
    const other = await memberOfNewOrganization();
    await migratedLegacyKey(owner.organization.id);
    await migratedLegacyKey(owner.organization.id);
    await migratedLegacyKey(other.organization.id);
    expect(await lookupRows(owner.organization.id)).toBe(2);
    const access = await authorizeOrganization(owner.auth, owner.organization.id, "organization:delete");
    await deleteOrganization(access, owner.auth, owner.organization.name);
    expect(await lookupRows(owner.organization.id)).toBe(0);
    expect(await lookupRows(other.organization.id)).toBe(1);
  });

  it("with its only member's account leaves no lookup row", async () => {
    const owner = await memberOfNewOrganization();
    const old = await migratedLegacyKey(owner.organization.id);
    await deleteAccount(owner.auth, { password: TEST_PASSWORD, confirm: owner.user.email });
    expect(await lookupRows(owner.organization.id)).toBe(0);
    expect((await authenticate(old.secret)).status).toBe(401);
  });
});

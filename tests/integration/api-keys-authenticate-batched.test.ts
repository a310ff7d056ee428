// apiKey.authenticate's batching (docs/decisions/0066-authenticate-batched.md): the calls of one
// organization that arrive in the same turn of the event loop share one statement, and each is
// still answered as if it had been alone: its own 200, 401 or 403, last used written for every key
// a call was allowed with and for no other.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { issueKey, revokeKey, rotateKey } from "../domain-calls";
import { authenticateKey, MAX_AUTHENTICATE_BATCH } from "~/api-keys/authenticate.server";
import { AUTHENTICATE_BATCH_SQL } from "~/api-keys/authenticate-sql";
import { bearerSecret, generateSecret, hashSecret } from "~/api-keys/secret.server";
import type { ApiKeyScope } from "~/access/api-key-scopes";
import { isDomainError } from "~/lib/domain-error";
import { pool, prisma } from "~/db.server";
import { authenticate, memberOfNewOrganization } from "../api-key-factories";

afterEach(() => vi.restoreAllMocks());

/** One call as the procedure makes it; its outcome as a word: the key id, 401 or 403. */
async function outcome(secret: string, scopes: ApiKeyScope[]): Promise<string> {
  try {
    return (await authenticateKey(bearerSecret(`Bearer ${secret}`)!, scopes)).keyId;
  } catch (error) {
    if (isDomainError(error) && error.code === "UNAUTHORIZED") return "401";
    if (isDomainError(error) && error.code === "FORBIDDEN") return "403";
    throw error;
  }
}

/** The calls, all started in one turn; the statements the app sent while they ran. */
async function inOneTurn(calls: (() => Promise<string>)[]): Promise<{ outcomes: string[]; statements: number }> {
  const spy = vi.spyOn(pool(), "query");
  try {
    const outcomes = await Promise.all(calls.map((call) => call()));
    return { outcomes, statements: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

async function lastUsed(organizationId: string, id: string): Promise<Date | null> {
  return (await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id } }, select: { lastUsedAt: true } }))
    .lastUsedAt;
}

describe("apiKey.authenticate, calls arriving together", () => {
  it("answers each call of one organization as its own from one statement, and writes last used only where a call was allowed", async () => {
    const owner = await memberOfNewOrganization();
    const orgId = owner.organization.id;
    const issue = (name: string, scopes: ApiKeyScope[]) => issueKey(owner.auth, orgId, { name, scopes });
    const reader = await issue("reader", ["audit:view"]);
    const both = await issue("both", ["audit:view", "member:read"]);
    const refused = await issue("refused", ["member:read"]);
    const revoked = await issue("revoked", ["audit:view"]);
    await revokeKey(owner.auth, orgId, revoked.key.id);
    const expired = await issue("expired", ["audit:view"]);
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: orgId, id: expired.key.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const unknownHere = generateSecret(orgId).secret;

    const { outcomes, statements } = await inOneTurn([
      () => outcome(reader.secret, ["audit:view"]),
      () => outcome(reader.secret, ["member:read"]),
      () => outcome(both.secret, []),
      () => outcome(both.secret, ["audit:view", "member:read"]),
      () => outcome(refused.secret, ["audit:view"]),
      () => outcome(revoked.secret, ["audit:view"]),
      () => outcome(expired.secret, []),
      () => outcome(unknownHere, []),
      () => outcome(reader.secret, ["audit:view"]),
    ]);
    expect(outcomes).toEqual([reader.key.id, "403", both.key.id, both.key.id, "403", "401", "401", "401", reader.key.id]);
    expect(statements).toBe(1);
    expect(await lastUsed(orgId, reader.key.id)).not.toBeNull();
    expect(await lastUsed(orgId, both.key.id)).not.toBeNull();
    // Its only call was refused: nothing written, as when it comes alone.
    expect(await lastUsed(orgId, refused.key.id)).toBeNull();
    expect(await lastUsed(orgId, revoked.key.id)).toBeNull();
    expect(await lastUsed(orgId, expired.key.id)).toBeNull();
  });

  it("keeps organizations apart: one statement each, and a secret naming another organization is the 401", async () => {
    const first = await memberOfNewOrganization();
    const second = await memberOfNewOrganization();
    const a = await issueKey(first.auth, first.organization.id, { name: "a", scopes: ["audit:view"] });
    const b = await issueKey(second.auth, second.organization.id, { name: "b", scopes: ["audit:view"] });
    // b's random part under the first organization's name: a well-formed secret the first does not hold.
    const bAsFirst = generateSecret(first.organization.id).secret;
    const { outcomes, statements } = await inOneTurn([
      () => outcome(a.secret, ["audit:view"]),
      () => outcome(b.secret, ["audit:view"]),
      () => outcome(bAsFirst, []),
      () => outcome(generateSecret(randomUUID()).secret, []),
    ]);
    expect(outcomes).toEqual([a.key.id, b.key.id, "401", "401"]);
    expect(statements).toBe(3);
  });

  it(`splits a turn of more than ${MAX_AUTHENTICATE_BATCH} calls into statements of at most that many, and answers every one`, async () => {
    const owner = await memberOfNewOrganization();
    const key = await issueKey(owner.auth, owner.organization.id, { name: "busy", scopes: ["audit:view"] });
    const calls = Array.from(
      { length: MAX_AUTHENTICATE_BATCH * 2 + 1 },
      (_, i) => () => outcome(i % 2 === 0 ? key.secret : generateSecret(owner.organization.id).secret, ["audit:view"]),
    );
    const { outcomes, statements } = await inOneTurn(calls);
    expect(statements).toBe(3);
    expect(outcomes).toEqual(calls.map((_, i) => (i % 2 === 0 ? key.key.id : "401")));
  });

  it("names the organization in every scan of api_keys (what routes it to one shard on Citus)", async () => {
    const owner = await memberOfNewOrganization();
    const { secret } = await issueKey(owner.auth, owner.organization.id, { name: "planned", scopes: ["audit:view"] });
    interface PlanNode {
      "Node Type": string;
      "Relation Name"?: string;
      "Index Cond"?: string;
      "Recheck Cond"?: string;
      Filter?: string;
      Plans?: PlanNode[];
    }
    const scansOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(scansOf)];
    const client = await pool().connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL enable_seqscan = off");
      const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${AUTHENTICATE_BATCH_SQL}`, [
        owner.organization.id,
        [hashSecret(secret), hashSecret(generateSecret(owner.organization.id).secret)],
        ["audit:view", ""],
      ]);
      await client.query("ROLLBACK");
      const scans = scansOf(rows[0]!["QUERY PLAN"][0].Plan).filter(
        (node) => node["Relation Name"] === "api_keys" && node["Node Type"].endsWith("Scan"),
      );
      expect(scans.length).toBeGreaterThanOrEqual(3);
      for (const scan of scans) {
        expect(`${scan["Index Cond"] ?? ""} ${scan["Recheck Cond"] ?? ""} ${scan.Filter ?? ""}`).toContain(
          `organization_id = '${owner.organization.id}'::uuid`,
        );
      }
    } finally {
      client.release();
    }
  });

  it("sees a revocation and a rotation committed between two turns: the old secrets are the 401, last used kept", async () => {
    const owner = await memberOfNewOrganization();
    const orgId = owner.organization.id;
    const revoked = await issueKey(owner.auth, orgId, { name: "revoked", scopes: ["audit:view"] });
    const rotated = await issueKey(owner.auth, orgId, { name: "rotated", scopes: ["audit:view"] });
    const first = await inOneTurn([() => outcome(revoked.secret, ["audit:view"]), () => outcome(rotated.secret, [])]);
    expect(first.outcomes).toEqual([revoked.key.id, rotated.key.id]);
    const usedBefore = await lastUsed(orgId, revoked.key.id);
    expect(usedBefore).not.toBeNull();

    await revokeKey(owner.auth, orgId, revoked.key.id);
    const { secret: newSecret } = await rotateKey(owner.auth, orgId, rotated.key.id);
    const { outcomes, statements } = await inOneTurn([
      () => outcome(revoked.secret, ["audit:view"]),
      () => outcome(rotated.secret, []),
      () => outcome(newSecret, ["audit:view"]),
      () => outcome(newSecret, ["member:read"]),
    ]);
    expect(outcomes).toEqual(["401", "401", rotated.key.id, "403"]);
    expect(statements).toBe(1);
    expect(await lastUsed(orgId, revoked.key.id)).toEqual(usedBefore);
  });

  it("answers a key whose row another transaction is rotating from the statement's snapshot, without waiting or writing it, and writes the others", async () => {
    const owner = await memberOfNewOrganization();
    const orgId = owner.organization.id;
    const busy = await issueKey(owner.auth, orgId, { name: "busy", scopes: ["audit:view"] });
    const free = await issueKey(owner.auth, orgId, { name: "free", scopes: ["audit:view"] });
    const { secret: newSecret, hash } = generateSecret(orgId);
    // What rotateKey does, held open: the row locked and its secret replaced, not yet committed.
    const writer = await pool().connect();
    try {
      await writer.query("BEGIN");
      await writer.query("UPDATE api_keys SET secret_hash = $3 WHERE organization_id = $1 AND id = $2", [
        orgId,
        busy.key.id,
        Buffer.from(hash),
      ]);
      // Answered at once (the test would time out waiting on the lock otherwise).
      const { outcomes, statements } = await inOneTurn([
        () => outcome(busy.secret, ["audit:view"]),
        () => outcome(busy.secret, ["member:read"]),
        () => outcome(newSecret, []),
        () => outcome(free.secret, []),
      ]);
      expect(outcomes).toEqual([busy.key.id, "403", "401", free.key.id]);
      expect(statements).toBe(1);
      expect(await lastUsed(orgId, busy.key.id)).toBeNull();
      expect(await lastUsed(orgId, free.key.id)).not.toBeNull();
    } finally {
      await writer.query("ROLLBACK");
      writer.release();
    }
  });

  it("answers calls of different turns from their own statements (a lone call is not held back)", async () => {
    const owner = await memberOfNewOrganization();
    const key = await issueKey(owner.auth, owner.organization.id, { name: "alone", scopes: ["audit:view"] });
    const spy = vi.spyOn(pool(), "query");
    expect(await outcome(key.secret, [])).toBe(key.key.id);
    expect(await outcome(key.secret, [])).toBe(key.key.id);
    expect(spy.mock.calls.length).toBe(2);
  });

  it("gives every call of a failed statement the failure (an outage is each caller's 503), and the next turn works again", async () => {
    const owner = await memberOfNewOrganization();
    const key = await issueKey(owner.auth, owner.organization.id, { name: "outage", scopes: ["audit:view"] });
    // The connection dropped under the statement (57P01, as on a restart): injected into the one
    // statement of this turn; the real outage is tests/production/database-outage.test.ts.
    vi.spyOn(pool(), "query").mockImplementationOnce(() =>
      Promise.reject(Object.assign(new Error("terminating connection"), { code: "57P01" })),
    );
    const answers = await Promise.all([authenticate(key.secret, []), authenticate(key.secret, [])]);
    expect(answers.map((a) => [a.status, a.json.code])).toEqual([
      [503, "SERVICE_UNAVAILABLE"],
      [503, "SERVICE_UNAVAILABLE"],
    ]);
    vi.restoreAllMocks();
    expect((await authenticate(key.secret, [])).status).toBe(200);
  });
});

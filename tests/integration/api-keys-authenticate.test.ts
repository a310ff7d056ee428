// POST /rpc/apiKey/authenticate through the same handler the server uses.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueKey, revokeKey } from "../domain-calls";
import { generateSecret, isWellFormedSecret } from "~/api-keys/secret.server";
import { prisma } from "~/db.server";
import { handleRpcFetchRequest } from "~/rpc/handler.server";
import { authenticate, callRpc, memberOfNewOrganization } from "../api-key-factories";
import { legacySecret } from "../legacy-secrets";

async function keyWith(scopes: ("organization:read" | "member:read" | "audit:view")[] = ["audit:view", "member:read"]) {
  const owner = await memberOfNewOrganization();
  const issued = await issueKey(owner.auth, owner.organization.id, { name: "integration", scopes });
  return { ...owner, ...issued };
}

describe("apiKey.authenticate", () => {
  it("proves identity with an empty scope list, updates last used, and writes no audit event", async () => {
    const { organization, key, secret } = await keyWith();
    const eventsBefore = await prisma.auditEvent.count({ where: { organizationId: organization.id } });
    const before = Date.now();
    const { status, json } = await authenticate(secret, []);
    expect(status).toBe(200);
    expect(json).toEqual({ keyId: key.id, organizationId: organization.id, scopes: ["audit:view", "member:read"] });
    const row = await prisma.apiKey.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: organization.id, id: key.id } },
      select: { lastUsedAt: true },
    });
    expect(row.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    // Every successful authentication moves it.
    await new Promise((r) => setTimeout(r, 20));
    await authenticate(secret, ["audit:view"]);
    const later = await prisma.apiKey.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: organization.id, id: key.id } },
      select: { lastUsedAt: true },
    });
    expect(later.lastUsedAt!.getTime()).toBeGreaterThan(row.lastUsedAt!.getTime());
    expect(await prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(eventsBefore);
  });

  it("checks requested scopes: all held → 200, any missing → 403 FORBIDDEN (last used unchanged)", async () => {
    const { organization, key, secret } = await keyWith(["audit:view", "member:read"]);
    expect((await authenticate(secret, ["member:read", "audit:view"])).status).toBe(200);
    const lastUsed = (
      await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id: key.id } } })
    ).lastUsedAt;
    const forbidden = await authenticate(secret, ["audit:view", "billing:view"]);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json).toMatchObject({ code: "FORBIDDEN", message: "The API key does not hold every requested scope." });
    expect(
      (await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id: key.id } } })).lastUsedAt,
    ).toEqual(lastUsed);
  });

  it("answers unknown, expired, revoked, malformed and missing keys with one identical 401", async () => {
    const expired = await keyWith();
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: expired.organization.id, id: expired.key.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const revoked = await keyWith();
    await revokeKey(revoked.auth, revoked.organization.id, revoked.key.id);
    const valid = (await keyWith()).secret;
    const flipped = valid.slice(0, 10) + (valid[10] === "a" ? "b" : "a") + valid.slice(11);
    const cases: { label: string; authorization?: string }[] = [
      { label: "unknown", authorization: `Bearer ${generateSecret(randomUUID()).secret}` },
      { label: "unknown of the older format", authorization: `Bearer ${legacySecret().secret}` },
      { label: "expired", authorization: `Bearer ${expired.secret}` },
      { label: "revoked", authorization: `Bearer ${revoked.secret}` },
      { label: "missing" },
      { label: "empty", authorization: "" },
      { label: "not bearer", authorization: `Basic ${Buffer.from(`x:${valid}`).toString("base64")}` },
      { label: "raw key without scheme", authorization: valid },
      { label: "sk_ alone", authorization: "Bearer sk_" },
      { label: "1 MB token", authorization: `Bearer sk_${"a".repeat(1024 * 1024)}` },
      { label: "bad checksum", authorization: `Bearer ${flipped}` },
      { label: "truncated", authorization: `Bearer ${valid.slice(0, -1)}` },
      { label: "another format", authorization: "Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a" },
      { label: "session-token shaped", authorization: "Bearer abcdefghijklmnopqrstuvwxyz234567" },
      { label: "two tokens", authorization: `Bearer ${valid} ${valid}` },
    ];
    expect(isWellFormedSecret(flipped)).toBe(false);
    const answers = [];
    for (const c of cases) {
      const answer = await authenticate(undefined, [], {
        headers: c.authorization === undefined ? {} : { authorization: c.authorization },
      });
      expect(answer.status, c.label).toBe(401);
      answers.push(answer.text);
    }
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0]!).json).toMatchObject({
      code: "UNAUTHORIZED",
      message: "The API key is missing, invalid, expired or revoked.",
    });
    // Also with scopes requested: a bad key is a 401 before anything else is looked at.
    expect((await authenticate(expired.secret, ["billing:view"])).text).toBe(answers[0]);
    expect((await authenticate(expired.secret, ["audit:view"])).text).toBe(answers[0]);
  });

  it("does not wait for a key whose row another transaction is writing: 200 or 403 as usual, last used left to that writer", async () => {
    const { organization, key, secret } = await keyWith(["audit:view"]);
    const { pool } = await import("~/db.server");
    const writer = await pool().connect();
    try {
      await writer.query("BEGIN");
      await writer.query("SELECT 1 FROM api_keys WHERE organization_id = $1 AND id = $2 FOR NO KEY UPDATE", [organization.id, key.id]);
      // Answered at once (the test would time out waiting on the lock otherwise), by the read that
      // follows a touch that found the row locked.
      const [held, notHeld] = await Promise.all([authenticate(secret, ["audit:view"]), authenticate(secret, ["member:read"])]);
      expect([held.status, held.json.keyId, notHeld.status]).toEqual([200, key.id, 403]);
      // Two calls in one turn share the batch statement (decision 0066); a lone call has its own.
      const alone = await authenticate(secret, ["audit:view"]);
      expect([alone.status, alone.json.keyId]).toEqual([200, key.id]);
      expect(
        (await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id: key.id } } }))
          .lastUsedAt,
      ).toBeNull();
    } finally {
      await writer.query("ROLLBACK");
      writer.release();
    }
    expect((await authenticate(secret, [])).status).toBe(200);
    expect(
      (await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id: key.id } } })).lastUsedAt,
    ).not.toBeNull();
  });

  it("accepts the scheme case-insensitively", async () => {
    const { secret } = await keyWith();
    expect((await callRpc("apiKey/authenticate", { authorization: `bearer ${secret}`, input: { scopes: [] } })).status).toBe(200);
  });

  it("answers bad bodies with a clear 400, never 500, and changes nothing", async () => {
    const { organization, key, secret } = await keyWith();
    const bodies = [
      "{not json",
      "",
      JSON.stringify({ json: { scopes: "audit:view" } }),
      JSON.stringify({ json: { scopes: ["audit:write"] } }),
      JSON.stringify({ json: { scopes: [1, 2] } }),
      JSON.stringify({ json: {} }),
      JSON.stringify({ json: { scopes: [], extra: 1 } }),
      JSON.stringify({ json: null }),
      JSON.stringify({ json: { scopes: Array.from({ length: 51 }, () => "audit:view") } }),
    ];
    for (const body of bodies) {
      const answer = await callRpc("apiKey/authenticate", { authorization: `Bearer ${secret}`, body });
      expect(answer.status, body.slice(0, 40)).toBe(400);
      expect(answer.json.code).toBe("BAD_REQUEST");
      expect(typeof answer.json.message).toBe("string");
    }
    expect(
      (await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id: key.id } } })).lastUsedAt,
    ).toBeNull();
  });

  it("is not cookie-authenticated: ignores sessions and cross-site headers", async () => {
    const { token, secret, organization } = await keyWith();
    // A signed-in session does not stand in for a key.
    expect((await callRpc("apiKey/authenticate", { sessionToken: token, input: { scopes: [] } })).status).toBe(401);
    // An integrator calling from anywhere is fine: there is no ambient credential to abuse.
    const crossSite = await authenticate(secret, [], { headers: { origin: "https://integrator.example", "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(200);
    expect(crossSite.json.organizationId).toBe(organization.id);
  });

  it("has no second HTTP route: the OpenAPI path is documentation only", async () => {
    const { secret } = await keyWith();
    for (const path of ["/rpc/api-keys/authenticate", "/api-keys/authenticate"]) {
      const request = new Request(`http://localhost${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${secret}` },
        body: JSON.stringify({ json: { scopes: [] } }),
      });
      expect((await handleRpcFetchRequest(request, "127.0.0.1")).status).toBe(404);
    }
  });

  it("answers in German when asked", async () => {
    const answer = await authenticate(undefined, [], { headers: { "accept-language": "de" } });
    expect(answer.json.message).toBe("Der API-Schlüssel fehlt, ist ungültig, abgelaufen oder widerrufen.");
  });
});

describe("secret format", () => {
  it("has sk_, 256 bits of randomness and a checksum; every single-character typo is caught", () => {
    const { secret, prefix } = generateSecret(randomUUID());
    expect(secret).toMatch(/^sk_[0-9A-Za-z]{73}$/);
    expect(secret.startsWith(prefix)).toBe(true);
    expect(prefix).toHaveLength(11);
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let caught = 0;
    let tried = 0;
    for (let i = 3; i < secret.length; i++) {
      for (const c of alphabet) {
        if (c === secret[i]) continue;
        tried++;
        if (!isWellFormedSecret(secret.slice(0, i) + c + secret.slice(i + 1))) caught++;
      }
    }
    expect(caught).toBe(tried);
    const organizationId = randomUUID();
    const many = new Set(Array.from({ length: 1000 }, () => generateSecret(organizationId).secret));
    expect(many.size).toBe(1000);
  });
});

// Issuing, listing, rotating and revoking keys through the apiKey.* procedures and the domain
// functions the page shares: rules, bad input, tenant isolation, audit events, concurrency.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { issueKey, listKeys, revokeKey, rotateKey } from "../domain-calls";
import { authorizeOrganization } from "~/access/organization-access.server";
import * as keys from "~/api-keys/api-keys.server";
import { MAX_UNREVOKED_KEYS } from "~/api-keys/schemas";
import { hashSecret, isWellFormedSecret } from "~/api-keys/secret.server";
import { prisma } from "~/db.server";
import { isDomainError } from "~/lib/domain-error";
import { authenticate, callRpc, joinOrganization, memberOfNewOrganization } from "../api-key-factories";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

const eventsOf = (organizationId: string) => prisma.auditEvent.findMany({ where: { organizationId }, orderBy: { id: "asc" } });
const keysOf = (organizationId: string) => prisma.apiKey.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } });

function issue(token: string, input: Record<string, unknown>) {
  return callRpc("apiKey/issue", { sessionToken: token, input });
}

/** Fills an organization with unrevoked keys directly (fast setup for limit tests). */
async function seedKeys(organizationId: string, count: number) {
  await prisma.apiKey.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      organizationId,
      name: `seed-${i}`,
      scopes: ["audit:view"],
      secretHash: new Uint8Array(hashSecret(`seed-${randomUUID()}`)),
      prefix: "sk_seed",
    })),
  });
}

describe("apiKey.issue", () => {
  it("returns the secret once, stores only its SHA-256, and records an event without secret, hash or prefix", async () => {
    const { organization, token, user } = await memberOfNewOrganization("admin");
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { status, json, headers } = await issue(token, {
      organizationId: organization.id,
      name: "  CI deploy  ",
      scopes: ["audit:view", "member:read"],
      expiresAt,
    });
    expect(status).toBe(200);
    // The one answer that holds the secret is kept by no browser cache or proxy.
    expect(headers.get("cache-control")).toBe("no-store");
    const { key, secret } = json as unknown as { key: Record<string, unknown>; secret: string };
    expect(isWellFormedSecret(secret)).toBe(true);
    expect(key).toMatchObject({
      name: "CI deploy",
      scopes: ["audit:view", "member:read"],
      state: "active",
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(key.createdBy).toEqual({ id: user.id, name: user.name, deleted: false });
    expect(secret.startsWith(key.prefix as string)).toBe(true);
    expect(JSON.stringify(key)).not.toContain(secret.slice(12));

    const [row] = await keysOf(organization.id);
    expect(Buffer.from(row!.secretHash).equals(hashSecret(secret))).toBe(true);

    const [event] = await eventsOf(organization.id);
    expect(event).toMatchObject({
      action: "api_key.issued",
      actorKind: "user",
      actorId: user.id,
      targetType: "api_key",
      targetId: key.id,
      details: { name: "CI deploy", scopes: ["audit:view", "member:read"], expiresAt },
    });
    const stored = JSON.stringify(event);
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(key.prefix as string);
    expect(stored).not.toContain(Buffer.from(row!.secretHash).toString("hex"));
  });

  it("rejects bad names, scopes and expiry with a clear 400, writing nothing", async () => {
    const { organization, token } = await memberOfNewOrganization();
    const base = { organizationId: organization.id, name: "ok", scopes: ["audit:view"] };
    const bad: Record<string, unknown>[] = [
      { ...base, name: "" },
      { ...base, name: "   " },
      { ...base, name: "x".repeat(10_000) },
      { ...base, name: "tab\tname" },
      { ...base, name: undefined },
      { ...base, name: 42 },
      { ...base, scopes: [] },
      { ...base, scopes: undefined },
      { ...base, scopes: "audit:view" },
      { ...base, scopes: ["audit:view", "audit:view"] },
      { ...base, scopes: ["audit:write"] },
      { ...base, scopes: ["admin"] },
      { ...base, expiresAt: "tomorrow" },
      { ...base, expiresAt: "2027-13-45T00:00:00Z" },
      { ...base, expiresAt: 1234 },
      { ...base, expiresAt: new Date(Date.now() - 60_000).toISOString() },
      { ...base, extra: true },
    ];
    for (const input of bad) {
      const { status, json } = await issue(token, input);
      expect(status, JSON.stringify(input).slice(0, 80)).toBe(400);
      expect(json.code).toBe("BAD_REQUEST");
      expect(typeof json.message).toBe("string");
    }
    expect(await keysOf(organization.id)).toHaveLength(0);
    expect(await eventsOf(organization.id)).toHaveLength(0);
  });

  it("answers the past expiry with a translated message", async () => {
    const { organization, token } = await memberOfNewOrganization();
    const input = { organizationId: organization.id, name: "old", scopes: ["audit:view"], expiresAt: "2020-01-01T00:00:00Z" };
    expect((await issue(token, input)).json.message).toBe("The expiry must be in the future.");
    const de = await callRpc("apiKey/issue", { sessionToken: token, input, headers: { "accept-language": "de" } });
    expect(de.json.message).toBe("Das Ablaufdatum muss in der Zukunft liegen.");
  });

  it("keeps names unique among unrevoked keys; a revoked key's name can be reused", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const first = await issueKey(auth, organization.id, { name: "CI", scopes: ["audit:view"] });
    await expect(issueKey(auth, organization.id, { name: "CI", scopes: ["member:read"] })).rejects.toSatisfy(
      (e) => isDomainError(e) && e.code === "CONFLICT" && e.messageKey === "apiKey.nameTaken",
    );
    await revokeKey(auth, organization.id, first.key.id);
    const again = await issueKey(auth, organization.id, { name: "CI", scopes: ["member:read"] });
    expect(again.key.name).toBe("CI");
    expect((await eventsOf(organization.id)).map((e) => e.action)).toEqual(["api_key.issued", "api_key.revoked", "api_key.issued"]);
  });

  it("refuses the 26th unrevoked key with 409 and a clear message; expired keys count, revoked ones do not", async () => {
    const { organization, token, auth } = await memberOfNewOrganization();
    await seedKeys(organization.id, MAX_UNREVOKED_KEYS - 1);
    // An expired key still counts.
    await prisma.apiKey.updateMany({
      where: { organizationId: organization.id, name: "seed-0" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const twentyFifth = await issue(token, { organizationId: organization.id, name: "25th", scopes: ["audit:view"] });
    expect(twentyFifth.status).toBe(200);
    const twentySixth = await issue(token, { organizationId: organization.id, name: "26th", scopes: ["audit:view"] });
    expect(twentySixth.status).toBe(409);
    expect(twentySixth.json).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("25 keys that are not revoked") });
    expect(await prisma.apiKey.count({ where: { organizationId: organization.id } })).toBe(MAX_UNREVOKED_KEYS);
    expect((await eventsOf(organization.id)).length).toBe(1);
    // Revoking one frees a place.
    const expired = await prisma.apiKey.findFirstOrThrow({ where: { organizationId: organization.id, name: "seed-0" } });
    await revokeKey(auth, organization.id, expired.id);
    expect((await issue(token, { organizationId: organization.id, name: "26th", scopes: ["audit:view"] })).status).toBe(200);
  });

  it("two owners issuing the 25th key at the same moment: exactly one wins, in each of 100 races", async () => {
    for (let race = 0; race < 100; race++) {
      const { organization, auth } = await memberOfNewOrganization();
      const other = await joinOrganization(organization.id, "owner");
      await seedKeys(organization.id, MAX_UNREVOKED_KEYS - 1);
      const results = await Promise.allSettled([
        issueKey(auth, organization.id, { name: "mine", scopes: ["audit:view"] }),
        issueKey(other.auth, organization.id, { name: "theirs", scopes: ["audit:view"] }),
      ]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(isDomainError(rejected.reason) && rejected.reason.messageKey).toBe("apiKey.limitReached");
      expect(await prisma.apiKey.count({ where: { organizationId: organization.id, revokedAt: null } })).toBe(MAX_UNREVOKED_KEYS);
    }
  }, 120_000);

  it("many concurrent issuers never exceed 25 unrevoked keys", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => issueKey(auth, organization.id, { name: `key-${i}`, scopes: ["audit:view"] })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_UNREVOKED_KEYS);
    for (const r of results)
      if (r.status === "rejected") expect(isDomainError(r.reason) && r.reason.messageKey).toBe("apiKey.limitReached");
    expect(await prisma.apiKey.count({ where: { organizationId: organization.id, revokedAt: null } })).toBe(MAX_UNREVOKED_KEYS);
    expect(await prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(MAX_UNREVOKED_KEYS);
  }, 60_000);
});

describe("an organization deleted after the access check", () => {
  it("answers 404 to issue, rotate and revoke (the organization lock finds no row) and writes nothing", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const { key } = await issueKey(auth, organization.id, { name: "before", scopes: ["audit:view"] });
    const access = await authorizeOrganization(auth, organization.id, "apiKey:manage");
    await prisma.organization.delete({ where: { id: organization.id } });
    const attempts = await Promise.allSettled([
      keys.issueKey(access, { name: "after", scopes: ["audit:view"] }),
      keys.rotateKey(access, key.id),
      keys.revokeKey(access, key.id),
    ]);
    for (const attempt of attempts) {
      expect(attempt.status).toBe("rejected");
      const reason = (attempt as PromiseRejectedResult).reason;
      expect(isDomainError(reason) && [reason.code, reason.messageKey]).toEqual(["NOT_FOUND", "organizationNotFound"]);
    }
    expect(await prisma.apiKey.count({ where: { organizationId: organization.id } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(0);
  });
});

describe("who may manage keys", () => {
  it("members get 403, strangers 403, unknown organizations 404, no session 401", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const member = await joinOrganization(organization.id, "member");
    const stranger = await memberOfNewOrganization();
    const input = { organizationId: organization.id, name: "x", scopes: ["audit:view"] };
    expect((await issue(member.token, input)).status).toBe(403);
    expect((await callRpc("apiKey/list", { sessionToken: member.token, input: { organizationId: organization.id } })).status).toBe(403);
    expect((await issue(stranger.token, input)).status).toBe(403);
    expect((await issue(stranger.token, { ...input, organizationId: randomUUID() })).status).toBe(404);
    expect((await issue(stranger.token, { ...input, organizationId: "not-a-uuid" })).status).toBe(404);
    expect((await callRpc("apiKey/issue", { input })).status).toBe(401);
    expect(await keysOf(organization.id)).toHaveLength(0);
    // A key cannot manage keys: a Bearer key is not a session.
    const { secret } = await issueKey(auth, organization.id, { name: "ci", scopes: ["organization:read"] });
    const withKey = await callRpc("apiKey/issue", { authorization: `Bearer ${secret}`, input: { ...input, name: "by key" } });
    expect(withKey.status).toBe(401);
    expect(await keysOf(organization.id)).toHaveLength(1);
  });

  it("refuses cross-site calls to the session procedures", async () => {
    const { organization, token } = await memberOfNewOrganization();
    const answer = await callRpc("apiKey/issue", {
      sessionToken: token,
      input: { organizationId: organization.id, name: "x", scopes: ["audit:view"] },
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    });
    expect(answer.status).toBe(403);
    expect(await keysOf(organization.id)).toHaveLength(0);
  });
});

describe("apiKey.list", () => {
  it("lists the organization's keys with state, creator and no secret material", async () => {
    const { organization, token, auth } = await memberOfNewOrganization();
    const active = await issueKey(auth, organization.id, { name: "active", scopes: ["audit:view"] });
    const revoked = await issueKey(auth, organization.id, { name: "revoked", scopes: ["audit:view"] });
    await revokeKey(auth, organization.id, revoked.key.id);
    const expired = await issueKey(auth, organization.id, {
      name: "expired",
      scopes: ["audit:view"],
      expiresAt: new Date(Date.now() + 60_000),
    });
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: organization.id, id: expired.key.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const other = await memberOfNewOrganization();
    await issueKey(other.auth, other.organization.id, { name: "someone else's", scopes: ["audit:view"] });

    const { status, json, text } = await callRpc("apiKey/list", { sessionToken: token, input: { organizationId: organization.id } });
    expect(status).toBe(200);
    const list = json as unknown as { name: string; state: string }[];
    expect(list.map((k) => [k.name, k.state])).toEqual([
      ["expired", "expired"],
      ["active", "active"],
      ["revoked", "revoked"],
    ]);
    for (const secret of [active.secret, revoked.secret, expired.secret]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/secretHash|secret_hash/);
  });
});

describe("apiKey.rotate and apiKey.revoke", () => {
  it("rotation keeps id, name, scopes and expiry, replaces the secret at once, and records an event", async () => {
    const { organization, token, auth } = await memberOfNewOrganization();
    const expiresAt = new Date(Date.now() + 3_600_000);
    const issued = await issueKey(auth, organization.id, { name: "CI", scopes: ["audit:view", "billing:view"], expiresAt });
    const { status, json, headers } = await callRpc("apiKey/rotate", {
      sessionToken: token,
      input: { organizationId: organization.id, keyId: issued.key.id },
    });
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("no-store");
    const rotated = json as unknown as { key: { id: string; name: string; scopes: string[]; expiresAt: string }; secret: string };
    expect(rotated.key).toMatchObject({
      id: issued.key.id,
      name: "CI",
      scopes: ["audit:view", "billing:view"],
      expiresAt: expiresAt.toISOString(),
    });
    expect(rotated.secret).not.toBe(issued.secret);
    expect((await authenticate(issued.secret)).status).toBe(401);
    expect((await authenticate(rotated.secret)).status).toBe(200);
    const events = await eventsOf(organization.id);
    expect(events.map((e) => e.action)).toEqual(["api_key.issued", "api_key.rotated"]);
    // The listed prefix before and after: which secret was live when.
    expect(events[1]).toMatchObject({
      actorKind: "user",
      targetType: "api_key",
      targetId: issued.key.id,
      details: { name: "CI", prefix: { from: issued.secret.slice(0, 11), to: rotated.secret.slice(0, 11) } },
    });
    expect(issued.key.prefix).toBe(issued.secret.slice(0, 11));
    expect(JSON.stringify(events[1]!.details)).not.toContain(rotated.secret);
    expect(JSON.stringify(events[1]!.details)).not.toContain(issued.secret);
  });

  it("revocation is final: the secret fails, a second revoke or a rotate is refused with 409", async () => {
    const { organization, token, auth } = await memberOfNewOrganization();
    const issued = await issueKey(auth, organization.id, { name: "CI", scopes: ["audit:view"] });
    const input = { organizationId: organization.id, keyId: issued.key.id };
    const revoked = await callRpc("apiKey/revoke", { sessionToken: token, input });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toMatchObject({ id: issued.key.id, state: "revoked" });
    expect((await authenticate(issued.secret)).status).toBe(401);
    const again = await callRpc("apiKey/revoke", { sessionToken: token, input });
    expect(again).toMatchObject({ status: 409, json: { code: "CONFLICT", message: "This key is already revoked." } });
    const rotate = await callRpc("apiKey/rotate", { sessionToken: token, input });
    expect(rotate.status).toBe(409);
    expect((await eventsOf(organization.id)).map((e) => e.action)).toEqual(["api_key.issued", "api_key.revoked"]);
  });

  it("an expired key can be revoked but not rotated", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const issued = await issueKey(auth, organization.id, { name: "old", scopes: ["audit:view"], expiresAt: new Date(Date.now() + 60_000) });
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: organization.id, id: issued.key.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expect(rotateKey(auth, organization.id, issued.key.id)).rejects.toSatisfy(
      (e) => isDomainError(e) && e.messageKey === "apiKey.expiredCannotRotate",
    );
    expect((await revokeKey(auth, organization.id, issued.key.id)).state).toBe("revoked");
  });

  it("another organization's key id answers 404 and nothing changes; non-UUID ids answer 404", async () => {
    const mine = await memberOfNewOrganization();
    const theirs = await memberOfNewOrganization();
    const foreign = await issueKey(theirs.auth, theirs.organization.id, { name: "theirs", scopes: ["audit:view"] });
    const before = await prisma.apiKey.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: theirs.organization.id, id: foreign.key.id } },
    });
    for (const keyId of [foreign.key.id, randomUUID(), "not-a-uuid", "", "'; DROP TABLE api_keys; --", "x".repeat(5000)]) {
      for (const procedure of ["rotate", "revoke"]) {
        const answer = await callRpc(`apiKey/${procedure}`, {
          sessionToken: mine.token,
          input: { organizationId: mine.organization.id, keyId },
        });
        expect(answer.status, `${procedure} ${keyId.slice(0, 20)}`).toBe(404);
        expect(answer.json).toMatchObject({ code: "NOT_FOUND", message: "This API key does not exist in this organization." });
      }
    }
    expect(
      await prisma.apiKey.findUniqueOrThrow({
        where: { organizationId_id: { organizationId: theirs.organization.id, id: foreign.key.id } },
      }),
    ).toEqual(before);
    expect((await authenticate(foreign.secret)).status).toBe(200);
    expect(await eventsOf(mine.organization.id)).toHaveLength(0);
    expect((await eventsOf(theirs.organization.id)).map((e) => e.action)).toEqual(["api_key.issued"]);
    // Asking for their organization directly is a 403, and still changes nothing.
    const direct = await callRpc("apiKey/revoke", {
      sessionToken: mine.token,
      input: { organizationId: theirs.organization.id, keyId: foreign.key.id },
    });
    expect(direct.status).toBe(403);
  });

  it("when the audit insert fails, the key change rolls back", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const issued = await issueKey(auth, organization.id, { name: "CI", scopes: ["audit:view"] });
    // A real failure in the database, for this organization only (this test file has its own
    // database), made by the tables' owner: the app's role may not create triggers (decision 0049).
    await queryOnce(
      process.env.DATABASE_URL!,
      `
      CREATE FUNCTION fail_audit_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit insert failed on purpose'; END $$;
      CREATE TRIGGER fail_audit_insert BEFORE INSERT ON audit_events
        FOR EACH ROW WHEN (NEW.organization_id = '${organization.id}') EXECUTE FUNCTION fail_audit_insert();`,
    );
    try {
      await expect(revokeKey(auth, organization.id, issued.key.id)).rejects.toThrow(/on purpose/);
      await expect(rotateKey(auth, organization.id, issued.key.id)).rejects.toThrow(/on purpose/);
      await expect(issueKey(auth, organization.id, { name: "second", scopes: ["audit:view"] })).rejects.toThrow(/on purpose/);
      const row = await prisma.apiKey.findUniqueOrThrow({
        where: { organizationId_id: { organizationId: organization.id, id: issued.key.id } },
      });
      expect(row.revokedAt).toBeNull();
      expect((await authenticate(issued.secret)).status).toBe(200);
      expect(await keysOf(organization.id)).toHaveLength(1);
    } finally {
      await queryOnce(process.env.DATABASE_URL!, "DROP TRIGGER fail_audit_insert ON audit_events; DROP FUNCTION fail_audit_insert()");
    }
  });

  it("a rotated or revoked secret never authenticates after the call returns, even under load", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const issued = await issueKey(auth, organization.id, { name: "busy", scopes: ["audit:view"] });
    let current = issued.secret;
    let stop = false;
    // Background traffic on the same key row while it is being rotated.
    const hammer = (async () => {
      while (!stop) await authenticate(current);
    })();
    try {
      for (let i = 0; i < 25; i++) {
        const previous = current;
        const rotated = await rotateKey(auth, organization.id, issued.key.id);
        current = rotated.secret;
        const [old, fresh] = await Promise.all([authenticate(previous), authenticate(current)]);
        expect(old.status).toBe(401);
        expect(fresh.status).toBe(200);
      }
      await revokeKey(auth, organization.id, issued.key.id);
      expect((await authenticate(current)).status).toBe(401);
    } finally {
      stop = true;
      await hammer;
    }
  });

  it("listKeys is scoped by organization and permission", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const other = await memberOfNewOrganization();
    await issueKey(other.auth, other.organization.id, { name: "other", scopes: ["audit:view"] });
    expect(await listKeys(auth, organization.id)).toEqual([]);
    await expect(listKeys(auth, other.organization.id)).rejects.toSatisfy((e) => isDomainError(e) && e.code === "FORBIDDEN");
  });
});

// The leaked-key lookup (issue 33, deliverable 3; docs/decisions/0057-leaked-key-lookup.md) against
// PostgreSQL: apiKey.lookup finds the organization's own keys in every state and answers exactly
// {key: null} for everything else (another organization's secret, an unknown one, junk, control
// characters), every one of them hashed and probed alike; text over the bound is a translated 400
// that is never hashed; members are refused; the per-user and per-organization budgets answer 429
// with Retry-After; nothing is recorded in the audit log; and the pasted secret appears in no log
// line and no answer, through the procedure and through the page behind the real request edge.
import { captureLogs } from "../captured-logs";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import { findOwnKeyBySecret } from "~/api-keys/key-by-secret.server";
import { LOOKUP_SECRET_MAX } from "~/api-keys/lookup-schema";
import { generateSecret, hashSecret } from "~/api-keys/secret.server";
import type * as SecretModule from "~/api-keys/secret.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { pool, prisma } from "~/db.server";
import { isDomainError } from "~/lib/domain-error";
import { logger } from "~/lib/logger.server";
import { consume } from "~/lib/rate-limit.server";
import { callRpc, joinOrganization, memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { call } from "../rpc";
import { issueKey, listKeys, revokeKey } from "../domain-calls";

// hashSecret, watched: a refused paste must never reach it, and every accepted one must.
vi.mock("~/api-keys/secret.server", async (importOriginal) => {
  const original = await importOriginal<typeof SecretModule>();
  return { ...original, hashSecret: vi.fn(original.hashSecret) };
});

const logged = captureLogs(logger);
// A block, not an arrow returning the mock: a function that beforeEach returns is run as a cleanup.
beforeEach(() => {
  vi.mocked(hashSecret).mockClear();
});

const DE = { "accept-language": "de-DE,de;q=0.9" };

const lookup = (token: string, organizationId: string, secret: unknown, headers: Record<string, string> = {}) =>
  callRpc("apiKey/lookup", { sessionToken: token, input: { organizationId, secret }, headers });

const auditCount = (organizationId: string) => prisma.auditEvent.count({ where: { organizationId } });

/** An owner's organization with three keys: one active, one expired, one revoked. */
async function organizationWithKeys() {
  const owner = await memberOfNewOrganization("owner");
  const issue = (name: string) => issueKey(owner.auth, owner.organization.id, { name, scopes: ["audit:view", "member:read"] });
  const active = await issue("CI deploy");
  const expired = await issue("Old importer");
  await prisma.apiKey.update({
    where: { organizationId_id: { organizationId: owner.organization.id, id: expired.key.id } },
    data: { expiresAt: new Date(Date.now() - 60_000) },
  });
  const revoked = await issue("Retired");
  await revokeKey(owner.auth, owner.organization.id, revoked.key.id);
  return { ...owner, secrets: { active: active.secret, expired: expired.secret, revoked: revoked.secret }, ids: { active: active.key.id } };
}

describe("apiKey.lookup", () => {
  it("finds the organization's own keys, active, expired and revoked, as apiKey.list shows them, and records nothing", async () => {
    const owner = await organizationWithKeys();
    const listed = await listKeys(owner.auth, owner.organization.id);
    const eventsBefore = await auditCount(owner.organization.id);
    for (const state of ["active", "expired", "revoked"] as const) {
      const answer = await lookup(owner.token, owner.organization.id, owner.secrets[state]);
      expect(answer.status, state).toBe(200);
      const key = (answer.json as { key: Record<string, unknown> }).key;
      expect(key.state).toBe(state);
      const { nextRevokedCursor: _cursor, ...asListed } = listed.find((item) => item.id === key.id)!;
      expect(key).toEqual(asListed);
      expect(answer.text).not.toContain(owner.secrets[state]);
      expect(Object.keys(key)).not.toContain("secretHash");
    }
    // Pasted with the line breaks and spaces a copy brings along.
    const padded = await lookup(owner.token, owner.organization.id, `\r\n  ${owner.secrets.active}\t \n`);
    expect((padded.json as { key: { id: string } }).key.id).toBe(owner.ids.active);
    expect(await auditCount(owner.organization.id)).toBe(eventsBefore);
    expect(vi.mocked(hashSecret)).toHaveBeenCalledTimes(4);
  });

  it("answers exactly {key: null} for another organization's key, an unknown secret, junk and control characters, each hashed and probed", async () => {
    const owner = await organizationWithKeys();
    const other = await organizationWithKeys();
    const unknown = generateSecret(owner.organization.id).secret;
    const { active } = owner.secrets;
    const notOurs = [
      other.secrets.active,
      other.secrets.revoked,
      unknown,
      generateSecret(other.organization.id).secret,
      "hello",
      "sk_" + "x".repeat(73),
      `${active.slice(0, 20)}\u0000${active.slice(20)}`,
      `${active}\u0007`,
      active.replace(/^sk_/, "sk\u202e_"),
      active.slice(0, -1),
      "' OR 1=1 --",
      "😀".repeat(50),
    ];
    for (const secret of notOurs) {
      const answer = await lookup(owner.token, owner.organization.id, secret);
      expect(answer.status, JSON.stringify(secret)).toBe(200);
      expect(answer.text).toBe(JSON.stringify({ json: { key: null } }));
    }
    // Junk is hashed like a secret: the answer's time cannot tell it from an unknown key.
    expect(vi.mocked(hashSecret)).toHaveBeenCalledTimes(notOurs.length);
    // The other organization's keys are still there, untouched, for their own owner.
    expect((await lookup(other.token, other.organization.id, other.secrets.active)).json).toMatchObject({ key: { state: "active" } });
  });

  it("refuses text over the bound with a translated 400, without hashing it, and never quotes it back", async () => {
    const owner = await memberOfNewOrganization("owner");
    for (const length of [LOOKUP_SECRET_MAX + 1, 60_000]) {
      const secret = `sk_${"A".repeat(length - 3)}`;
      const english = await lookup(owner.token, owner.organization.id, secret);
      expect(english.status).toBe(400);
      expect(english.text).toContain(`fewer than ${LOOKUP_SECRET_MAX} characters`);
      expect(english.text).not.toContain("A".repeat(50));
      const german = await lookup(owner.token, owner.organization.id, secret, DE);
      expect(german.status).toBe(400);
      expect(german.text).toContain(`weniger als ${LOOKUP_SECRET_MAX} Zeichen`);
    }
    // A 1 MB paste handed to the domain function itself: refused before the rate limit and the hash.
    const access = await authorizeOrganization(owner.auth, owner.organization.id, "apiKey:manage");
    const refused = await findOwnKeyBySecret(access, "A".repeat(1024 * 1024)).catch((error: unknown) => error);
    expect(isDomainError(refused) && refused.status).toBe(400);
    expect(vi.mocked(hashSecret)).not.toHaveBeenCalled();
    const { rows } = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE $1", [
      `apiKey.lookup.user:${owner.user.id}`,
    ]);
    expect(rows[0]!.n).toBe(0);
    // Empty or blank: asked for the secret, not looked up.
    for (const blank of ["", "  \n "]) expect((await lookup(owner.token, owner.organization.id, blank)).status).toBe(400);
    // Strict input: no field beyond organizationId and secret.
    const extra = await callRpc("apiKey/lookup", {
      sessionToken: owner.token,
      input: { organizationId: owner.organization.id, secret: "x", organization: "other" },
    });
    expect(extra.status).toBe(400);
    expect(vi.mocked(hashSecret)).not.toHaveBeenCalled();
  });

  it("is for owners and admins of the active organization only", async () => {
    const owner = await organizationWithKeys();
    const admin = await joinOrganization(owner.organization.id, "admin");
    const member = await joinOrganization(owner.organization.id, "member");
    expect((await lookup(admin.token, owner.organization.id, owner.secrets.active)).json).toMatchObject({ key: { state: "active" } });
    const refused = await lookup(member.token, owner.organization.id, owner.secrets.active);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain(owner.secrets.active);
    // An owner elsewhere cannot ask about this organization.
    const stranger = await memberOfNewOrganization("owner");
    expect((await lookup(stranger.token, owner.organization.id, owner.secrets.active)).status).toBe(403);
    expect((await callRpc("apiKey/lookup", { input: { organizationId: owner.organization.id, secret: "x" } })).status).toBe(401);
    expect(vi.mocked(hashSecret)).toHaveBeenCalledTimes(1);
  });

  it("allows 30 lookups a minute per user and 100 per organization, then answers 429 with Retry-After, translated", async () => {
    const owner = await memberOfNewOrganization("owner");
    const secret = generateSecret(owner.organization.id).secret;
    for (let i = 0; i < 30; i++) expect((await lookup(owner.token, owner.organization.id, secret)).status).toBe(200);
    const limited = await call("apiKey/lookup", owner.token, { organizationId: owner.organization.id, secret });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.json.message).toMatch(/^Too many attempts\. Try again in (\d+ seconds?|1 minute)\.$/);
    expect((await lookup(owner.token, owner.organization.id, secret, DE)).json.message).toMatch(/^Zu viele Versuche\./);
    // Another admin of the organization still has their own budget, until the organization's is spent.
    const admin = await joinOrganization(owner.organization.id, "admin");
    expect((await lookup(admin.token, owner.organization.id, secret)).status).toBe(200);
    // 31 of the organization's 100 are spent (the refused calls gave theirs back); spend the rest.
    for (let i = 31; i < 100; i++) await consume("apiKey.lookup.organization", owner.organization.id);
    const orgLimited = await call("apiKey/lookup", admin.token, { organizationId: owner.organization.id, secret });
    expect(orgLimited.status).toBe(429);
    expect(Number(orgLimited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(orgLimited.json.message).toMatch(/^Too many attempts\./);
  });
});

describe("the lookup over HTTP (the page and the procedure behind the request edge)", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startInProcessServer();
  });
  afterAll(() => server.close());

  const PAGE = "/dashboard/organization-settings/api-keys/lookup";
  const post = (token: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.origin}${PAGE}`, {
      method: "POST",
      headers: {
        cookie: `${sessionCookieName()}=${token}`,
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        accept: "text/html",
        ...headers,
      },
      body,
    });

  it("shows the key or the one sentence, never the pasted secret, and logs no secret anywhere", async () => {
    const owner = await organizationWithKeys();
    const other = await organizationWithKeys();
    const eventsBefore = await auditCount(owner.organization.id);
    const found = await post(owner.token, new URLSearchParams({ secret: `${owner.secrets.active}\n` }).toString());
    expect(found.status).toBe(200);
    expect(found.headers.get("cache-control")).toBe("no-store");
    const foundPage = await found.text();
    expect(foundPage).toContain("This secret is the key “CI deploy”");
    expect(foundPage).toContain(`/dashboard/organization-settings/audit-log?targetId=${owner.ids.active}`);
    expect(foundPage).toContain(`/dashboard/organization-settings/api-keys?confirm=revoke&amp;key=${owner.ids.active}`);
    for (const secret of [other.secrets.active, "hello"]) {
      const page = await (await post(owner.token, new URLSearchParams({ secret }).toString(), DE)).text();
      expect(page).toContain("Dieses Geheimnis ist kein Schlüssel dieser Organisation.");
      expect(page).not.toContain(secret);
    }
    // About 1 MB pasted: a translated 400 naming the bound, the text not in the answer.
    const huge = "B".repeat(1_000_000);
    const tooLong = await post(owner.token, new URLSearchParams({ secret: huge }).toString());
    expect(tooLong.status).toBe(400);
    const tooLongPage = await tooLong.text();
    expect(tooLongPage).toContain(`fewer than ${LOOKUP_SECRET_MAX} characters`);
    expect(tooLongPage).not.toContain("B".repeat(100));
    // Over the edge's page body limit: its own 413, before any route.
    expect((await post(owner.token, new URLSearchParams({ secret: huge + huge }).toString())).status).toBe(413);
    // A member gets the page's 403, whatever is pasted.
    const member = await joinOrganization(owner.organization.id, "member");
    expect((await post(member.token, new URLSearchParams({ secret: owner.secrets.active }).toString())).status).toBe(403);
    // The procedure through the edge, where the request line is written.
    const viaRpc = await fetch(`${server.origin}/rpc/apiKey/lookup`, {
      method: "POST",
      headers: { cookie: `${sessionCookieName()}=${owner.token}`, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: JSON.stringify({ json: { organizationId: owner.organization.id, secret: owner.secrets.expired } }),
    });
    expect(((await viaRpc.json()) as { json: { key: { state: string } } }).json.key.state).toBe("expired");
    expect(await auditCount(owner.organization.id)).toBe(eventsBefore);

    const lines = logged.join("");
    expect(lines).toContain(PAGE); // the request lines were captured
    for (const secret of [...Object.values(owner.secrets), other.secrets.active]) {
      expect(lines).not.toContain(secret);
      // Nor a telling part of it (the random part after the prefix the lists show).
      expect(lines).not.toContain(secret.slice(12, 40));
    }
    expect(lines).not.toContain("B".repeat(100));
  });
});

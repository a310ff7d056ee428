// Two production servers on one database, each with its own pools and its own job worker, and
// requests raced through both at once as a load balancer would spread them (issue 31, "Many
// instances"; docs/decisions/0044-many-instances.md). Every rule that holds on one instance must
// hold across two: nothing may be counted, cached or decided in one process's memory.
//
// Each race is built so that the guard named in its test is what makes it pass; without that guard
// the numbers come out differently (checked by removing each guard and running this file once):
// - the 25-key cap: the organization's row lock (lockOrganization in issueKey) makes each issuer
//   re-count after the one before it committed; without it, several of the racers count 24 and win.
// - the export limits: each point is one atomic upsert in rate_limits (app/lib/rate-limit.server.ts);
//   a limiter in process memory would let each instance allow 5 (10 in all).
// - the provider event id: applyProviderEvent locks the organization, then looks the id up; without
//   the lock the racers all miss it and the losers' inserts collide (409 instead of 200).
// - the invitation: the organization lock serialises the "pending invitation for this address?"
//   check (one invitation, one event, one job), and graphile-worker's locked job row (FOR UPDATE SKIP
//   LOCKED) gives the job to one worker, so one mail, though both workers are woken by its NOTIFY.
// - sessions and keys: every request reads them from PostgreSQL; a per-process cache would let the
//   other instance accept them after sign-out, revocation or rotation.
// - a two-factor code: the highest accepted time step is stored with the user and raised by one
//   conditional UPDATE (acceptTotp), so a code works once whichever instance sees it.
// - cursors: signed with a key both instances read from server_secrets (made by whichever asked first).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentStep, totpFor } from "~/auth/two-factor.server";
import { signatureHeader } from "~/billing/signature.server";
import { prisma } from "~/db.server";
import { invitationMailJobKey } from "~/organizations/invitations.server";
import { issueKey, revokeKey } from "../domain-calls";
import { createOrganizationWith, createUser, signedIn, TEST_PASSWORD, TEST_TOTP_KEY } from "../factories";
import type { ProductionServer } from "./production-server.ts";
import { acrossBoth, INSTANCE_NAMES, mailsAcross, procedure, signInAt, signOutAt, startTwoInstances } from "./two-instances.ts";

const WEBHOOK_SECRET = "many-instances-test-webhook-secret-0123456789";
let servers: ProductionServer[] = [];
let database: pg.Client;

beforeAll(async () => {
  servers = await startTwoInstances(process.env.DATABASE_URL!, { BILLING_WEBHOOK_SECRET: WEBHOOK_SECRET });
  database = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await database.connect();
  // Listening is not yet ready: each starts its worker just after (/readyz waits for it).
  for (const server of servers) {
    const deadline = Date.now() + 30_000;
    while ((await fetch(`${server.origin}/readyz`)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`${server.origin} did not become ready:\n${server.output().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await database?.end();
}, 60_000);

/** A user with `role` in a new organization on `planId`, signed in with it active; the session cookie. */
async function memberOfNew(planId = "free", role: "owner" | "admin" = "owner", organizationId?: string) {
  const user = await createUser();
  const organization = organizationId ? { id: organizationId } : await createOrganizationWith([{ userId: user.id, role }], { planId });
  if (organizationId) await prisma.membership.create({ data: { organizationId, userId: user.id, role } });
  const { token, auth } = await signedIn(user.id, organization.id);
  return { user, organizationId: organization.id, cookie: `session=${token}`, auth };
}

const eventsOf = (organizationId: string, action: string) => prisma.auditEvent.count({ where: { organizationId, action } });
const countOf = (answers: { status: number }[], status: number) => answers.filter((a) => a.status === status).length;

describe("two instances on one database", () => {
  it("both run: ready, and each instance's job worker holds its own LISTEN connection", async () => {
    for (const server of servers) expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
    const { rows } = await database.query<{ name: string }>(
      `SELECT application_name AS name FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN "jobs:insert"%' ORDER BY 1`,
    );
    expect(rows.map((r) => r.name)).toEqual([...INSTANCE_NAMES]);
  });

  it("a cursor signed by one instance is accepted by the other, though both made the signing key at once", async () => {
    const owner = await memberOfNew();
    // 60 events: more than one page of auditLog.list (50).
    for (let i = 0; i < 30; i++) {
      const { key } = await issueKey(owner.auth, owner.organizationId, { name: `cursor ${i}`, scopes: ["audit:view"] });
      await revokeKey(owner.auth, owner.organizationId, key.id);
    }
    expect(await database.query("SELECT 1 FROM server_secrets WHERE name = 'audit-cursor'").then((r) => r.rowCount)).toBe(0);
    const firstPages = await acrossBoth(servers, 2, (server) =>
      procedure(server, "auditLog/list", { organizationId: owner.organizationId }, owner),
    );
    expect(firstPages.map((page) => page.status)).toEqual([200, 200]);
    const [fromA, fromB] = firstPages.map((page) => page.json.nextCursor as string);
    const secondPages = await Promise.all([
      procedure(servers[1]!, "auditLog/list", { organizationId: owner.organizationId, cursor: fromA }, owner),
      procedure(servers[0]!, "auditLog/list", { organizationId: owner.organizationId, cursor: fromB }, owner),
    ]);
    expect(secondPages.map((page) => page.status)).toEqual([200, 200]);
    for (const page of secondPages) expect((page.json.events as unknown[]).length).toBe(10);
    expect(await database.query("SELECT 1 FROM server_secrets").then((r) => r.rowCount)).toBe(1);
  });
});

describe("the 25-key cap across both instances", () => {
  it("has exactly one winner when 16 issuers race for the 25th key, and exactly as many as are free afterwards", async () => {
    const owner = await memberOfNew();
    const held: string[] = [];
    for (let i = 0; i < 24; i++)
      held.push((await issueKey(owner.auth, owner.organizationId, { name: `held ${i}`, scopes: ["audit:view"] })).key.id);
    const issue = (round: string) =>
      acrossBoth(servers, 16, (server, i) =>
        procedure(server, "apiKey/issue", { organizationId: owner.organizationId, name: `${round} ${i}`, scopes: ["audit:view"] }, owner),
      );
    const unrevoked = () => prisma.apiKey.count({ where: { organizationId: owner.organizationId, revokedAt: null } });

    const boundary = await issue("boundary");
    expect(countOf(boundary, 200)).toBe(1);
    expect(countOf(boundary, 409)).toBe(15);
    for (const refused of boundary.filter((a) => a.status === 409)) {
      expect(refused.json).toMatchObject({ code: "CONFLICT", message: expect.stringContaining("25") });
    }
    expect(await unrevoked()).toBe(25);
    expect(await eventsOf(owner.organizationId, "api_key.issued")).toBe(25);

    for (const keyId of held.slice(0, 3)) await revokeKey(owner.auth, owner.organizationId, keyId);
    const three = await issue("three free");
    expect(countOf(three, 200)).toBe(3);
    expect(countOf(three, 409)).toBe(13);
    expect(await unrevoked()).toBe(25);
    expect(await eventsOf(owner.organizationId, "api_key.issued")).toBe(28);
  });
});

describe("the export limits across both instances", () => {
  const exportAt = async (server: ProductionServer, organizationId: string, cookie: string) => {
    const answer = await fetch(`${server.origin}/api/organizations/${organizationId}/audit-log/export?format=json`, {
      headers: { Cookie: cookie, "Accept-Language": "en" },
    });
    const text = await answer.text();
    return { status: answer.status, headers: answer.headers, text };
  };

  it("lets one user export 5 times a minute, however 12 requests race over both instances", async () => {
    const owner = await memberOfNew("enterprise");
    const answers = await acrossBoth(servers, 12, (server) => exportAt(server, owner.organizationId, owner.cookie));
    expect(countOf(answers, 200)).toBe(5);
    expect(countOf(answers, 429)).toBe(7);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(JSON.parse(refused.text)).toEqual({
        code: "TOO_MANY_REQUESTS",
        message: expect.stringMatching(/^Too many attempts\. Try again in \d+ (seconds|minute)\.$/),
      });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("ratelimit")).toMatch(/^"audit\.export\.user";r=0;t=\d+$/);
    }
    expect(await eventsOf(owner.organizationId, "audit.exported")).toBe(5);
  });

  it("lets one organization export 10 times a minute, however its 3 users' 12 requests race over both instances", async () => {
    const owner = await memberOfNew("enterprise");
    const admins = [
      await memberOfNew("enterprise", "admin", owner.organizationId),
      await memberOfNew("enterprise", "admin", owner.organizationId),
    ];
    const people = [owner, ...admins];
    // Four each: no user reaches their own 5, so every refusal is the organization's.
    const answers = await acrossBoth(servers, 12, (server, i) => exportAt(server, owner.organizationId, people[i % 3]!.cookie));
    expect(countOf(answers, 200)).toBe(10);
    expect(countOf(answers, 429)).toBe(2);
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.headers.get("ratelimit")).toMatch(/^"audit\.export\.organization";r=0;t=\d+$/);
    }
    expect(await eventsOf(owner.organizationId, "audit.exported")).toBe(10);
  });
});

describe("an idempotency key delivered to both instances at once", () => {
  it("applies a provider event once: one change, one audit event, the same billing in every answer", async () => {
    const owner = await memberOfNew("enterprise");
    const body = JSON.stringify({ id: "evt_many_instances_1", type: "payment_failed", organizationId: owner.organizationId });
    const answers = await acrossBoth(servers, 12, async (server) => {
      const answer = await fetch(`${server.origin}/api/billing/provider-events`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "KeyLedger-Signature": signatureHeader(WEBHOOK_SECRET, body) },
        body,
      });
      return { status: answer.status, json: (await answer.json()) as { outcome: string; billing: unknown } };
    });
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(answers.filter((a) => a.json.outcome === "applied")).toHaveLength(1);
    expect(answers.filter((a) => a.json.outcome === "already_processed")).toHaveLength(11);
    expect(answers[0]!.json.billing).toMatchObject({ planId: "enterprise", state: "past_due" });
    for (const answer of answers) expect(answer.json.billing).toEqual(answers[0]!.json.billing);
    expect(await eventsOf(owner.organizationId, "billing.state_changed")).toBe(1);
    expect(await prisma.billingProviderEvent.count({ where: { organizationId: owner.organizationId } })).toBe(1);
  });
});

describe("mail with both workers running", () => {
  it("sends each invitation's mail exactly once, however often it was asked for on either instance", async () => {
    const owner = await memberOfNew();
    const raced = `raced-${owner.organizationId}@example.test`;
    const others = [1, 2, 3].map((n) => `other-${n}-${owner.organizationId}@example.test`);
    // 10 asks for one address and 2 for each of three others, all at once (16: under the inviter's 20 an hour).
    const addresses = [...Array<string>(10).fill(raced), ...others.flatMap((address) => [address, address])];
    const answers = await acrossBoth(servers, addresses.length, (server, i) =>
      procedure(server, "organization/inviteMember", { organizationId: owner.organizationId, email: addresses[i], role: "member" }, owner),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(addresses.length).fill(200));
    expect(new Set(answers.slice(0, 10).map((a) => a.json.id)).size).toBe(1);
    const invitations = await prisma.invitation.findMany({ where: { organizationId: owner.organizationId }, select: { id: true } });
    expect(invitations).toHaveLength(4);
    expect(await eventsOf(owner.organizationId, "invitation.sent")).toBe(4);

    // Both workers are woken by each job's NOTIFY and poll every 2 s: wait until every job has
    // been done (its row is deleted), then three more poll intervals, so a second send would show.
    const keys = invitations.map((invitation) => invitationMailJobKey(invitation.id));
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { rows } = await database.query<{ n: number }>("SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ANY($1)", [
        keys,
      ]);
      if (rows[0]!.n === 0) break;
      if (Date.now() > deadline)
        throw new Error(`invitation mails still queued:\n${servers.map((s) => s.output().slice(-2000)).join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const sent = await Promise.all(
      [raced, ...others].map(async (address) => ({ address, mails: (await mailsAcross(servers, address)).length })),
    );
    expect(sent).toEqual([raced, ...others].map((address) => ({ address, mails: 1 })));
  }, 60_000);
});

describe("credentials ended on one instance", () => {
  it("a session signed out on one instance is refused on the other at once", async () => {
    const user = await createUser();
    const cookie = await signInAt(servers[0]!, user.email, TEST_PASSWORD);
    expect((await procedure(servers[1]!, "organization/list", {}, { cookie })).status).toBe(200);
    expect(await signOutAt(servers[0]!, cookie)).toBe(302);
    expect(await procedure(servers[1]!, "organization/list", {}, { cookie })).toMatchObject({
      status: 401,
      json: { code: "UNAUTHORIZED" },
    });
    const page = await fetch(`${servers[1]!.origin}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/login/);
  });

  it("a session ended from another session on one instance is refused on the other at once", async () => {
    const user = await createUser();
    const [here, there] = [await signInAt(servers[0]!, user.email, TEST_PASSWORD), await signInAt(servers[1]!, user.email, TEST_PASSWORD)];
    // Each instance has just accepted the session it is then asked about.
    expect((await procedure(servers[0]!, "organization/list", {}, { cookie: here })).status).toBe(200);
    const sessions = await procedure(servers[1]!, "account/sessions", {}, { cookie: there });
    const other = (sessions.json as unknown as { id: string; current: boolean }[]).find((session) => !session.current)!;
    expect((await procedure(servers[1]!, "account/revokeSession", { sessionId: other.id }, { cookie: there })).status).toBe(200);
    expect((await procedure(servers[0]!, "organization/list", {}, { cookie: here })).status).toBe(401);
    expect((await procedure(servers[0]!, "organization/list", {}, { cookie: there })).status).toBe(200);
  });

  it("a two-factor code raced through both instances signs in one session only", async () => {
    const user = await createUser({ twoFactor: true });
    // Six sign-ins halfway (password given), three through each instance, then one code for all.
    const halfway = await acrossBoth(servers, 6, (server) => signInAt(server, user.email, TEST_PASSWORD));
    const code = totpFor(TEST_TOTP_KEY, currentStep());
    const steps = await acrossBoth(servers, 6, async (server, i) => {
      const answer = await fetch(`${server.origin}/login/two-factor`, {
        method: "POST",
        redirect: "manual",
        headers: {
          Origin: server.origin,
          "Sec-Fetch-Site": "same-origin",
          "Content-Type": "application/x-www-form-urlencoded",
          Cookie: halfway[i]!,
        },
        body: new URLSearchParams({ code }),
      });
      await answer.arrayBuffer();
      return answer.status;
    });
    expect(steps.filter((status) => status === 302)).toHaveLength(1);
    expect(steps.filter((status) => status === 400)).toHaveLength(5);
    const signedInNow = await acrossBoth(servers, 6, (server, i) => procedure(server, "organization/list", {}, { cookie: halfway[i]! }));
    expect(countOf(signedInNow, 200)).toBe(1);
    expect(signedInNow.findIndex((answer) => answer.status === 200)).toBe(steps.indexOf(302));
  });

  it("a key rotated or revoked on one instance fails on the other at once, though both had just accepted it", async () => {
    const owner = await memberOfNew();
    const onBoth = (secret: string) =>
      Promise.all(
        servers.map(
          async (server) => (await procedure(server, "apiKey/authenticate", { scopes: [] }, { authorization: `Bearer ${secret}` })).status,
        ),
      );
    const input = { organizationId: owner.organizationId, name: "ci", scopes: ["audit:view"] };
    const issued = (await procedure(servers[0]!, "apiKey/issue", input, owner)).json as unknown as { key: { id: string }; secret: string };
    expect(await onBoth(issued.secret)).toEqual([200, 200]);
    const rotated = await procedure(servers[1]!, "apiKey/rotate", { organizationId: owner.organizationId, keyId: issued.key.id }, owner);
    const next = rotated.json as unknown as { key: { id: string }; secret: string };
    expect(await onBoth(issued.secret)).toEqual([401, 401]);
    expect(await onBoth(next.secret)).toEqual([200, 200]);
    expect(
      (await procedure(servers[0]!, "apiKey/revoke", { organizationId: owner.organizationId, keyId: next.key.id }, owner)).status,
    ).toBe(200);
    expect(await onBoth(next.secret)).toEqual([401, 401]);
  });
});

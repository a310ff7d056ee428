// The platform support console's rules (docs/decisions/0026-support-console.md) through the real
// RPC handler and database: the support namespace does not exist for anyone but platform admins;
// a fresh session and two-factor; support access opened per session with a reason; every read
// recorded in the console's own records and never in the organization's audit log; the
// organization search and the records list.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pool, prisma } from "~/db.server";
import { validateSessionToken } from "~/auth/session.server";
import { beginEnrollment, confirmEnrollment, currentStep, totpFor, verifySecondFactor } from "~/auth/two-factor.server";
import { authorizePlatformAdmin } from "~/access/organization-access.server";
import { searchOrganizations, ORGANIZATION_SEARCH_PAGE_SIZE } from "~/organizations/admin.server";
import { listSupportAdmins, listSupportRecords, SUPPORT_LOG_PAGE_SIZE } from "~/support/support.server";
import { callRpc, joinOrganization, memberOfNewOrganization } from "../api-key-factories";
import { issueKey } from "../domain-calls";
import { createOrganizationWith, createUser, signedIn, signedInPlatformAdmin } from "../factories";

const REASON = "Customer reports a key they did not issue (ZD-4711)";

const list = (token: string | undefined, organizationId: string, extra: Record<string, unknown> = {}) =>
  callRpc("support/auditLog/list", { sessionToken: token, input: { organizationId, ...extra } });
const beginAccess = (token: string | undefined, organizationId: string, reason: unknown = REASON, ticket?: unknown) =>
  callRpc("support/beginAccess", { sessionToken: token, input: { organizationId, reason, ...(ticket === undefined ? {} : { ticket }) } });

const recordsOf = (adminUserId: string) =>
  prisma.supportAction.findMany({ where: { adminUserId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
const auditEventCount = async (organizationId: string) => prisma.auditEvent.count({ where: { organizationId } });

/** An organization with an owner and one issued key (so the log has an event). */
async function organizationWithEvents() {
  const owner = await memberOfNewOrganization("owner");
  await issueKey(owner.auth, owner.organization.id, { name: "Billing sync", scopes: ["billing:view"] });
  return owner;
}

describe("the support namespace", () => {
  it("does not exist (404) for signed-out callers, members, admins and owners, whatever they send", async () => {
    const { organization, token: ownerToken } = await organizationWithEvents();
    const admin = await joinOrganization(organization.id, "admin");
    const member = await joinOrganization(organization.id, "member");
    const eventId = (await prisma.auditEvent.findFirstOrThrow({ where: { organizationId: organization.id } })).id;
    const calls: [string, unknown][] = [
      ["support/beginAccess", { organizationId: organization.id, reason: REASON }],
      ["support/auditLog/list", { organizationId: organization.id }],
      ["support/auditLog/detail", { organizationId: organization.id, eventId }],
      ["support/auditLog/actors", { organizationId: organization.id }],
      ["support/auditLog/list", { organizationId: 42, cursor: ["x"] }],
      ["support/beginAccess", {}],
    ];
    for (const token of [undefined, ownerToken, admin.token, member.token]) {
      for (const [path, input] of calls) {
        const answer = await callRpc(path, { sessionToken: token, input });
        expect([answer.status, answer.json.code], `${path} ${token ? "signed in" : "signed out"}`).toEqual([404, "NOT_FOUND"]);
      }
      // Not even a malformed body or a cross-site request tells them the namespace exists.
      expect((await callRpc("support/auditLog/list", { sessionToken: token, body: "{not json" })).status).toBe(404);
      expect(
        (await callRpc("support/beginAccess", { sessionToken: token, input: {}, headers: { "sec-fetch-site": "cross-site" } })).status,
      ).toBe(404);
    }
    expect(await prisma.supportAction.count()).toBe(0);
    expect(await prisma.supportAccessGrant.count()).toBe(0);
  });

  it("asks platform admins for two-factor, the second step of sign-in, and a fresh session", async () => {
    const { organization } = await organizationWithEvents();
    const withoutTwoFactor = await createUser({ isPlatformAdmin: true, twoFactor: false });
    const noTwoFactor = await signedIn(withoutTwoFactor.id);
    expect(await beginAccess(noTwoFactor.token, organization.id)).toMatchObject({
      status: 403,
      json: { code: "FORBIDDEN", message: "Platform administrators need two-factor authentication. Enable it under Security first." },
    });
    const staff = await signedInPlatformAdmin();
    const halfway = await signedIn(staff.user.id);
    expect((await beginAccess(halfway.token, organization.id)).status).toBe(401);
    await prisma.session.update({
      where: { id: staff.auth.session.id },
      data: { authenticatedAt: new Date(Date.now() - 31 * 60 * 1000) },
    });
    const stale = await beginAccess(staff.token, organization.id);
    expect([stale.status, stale.json.message]).toEqual([403, "Please sign in again to continue."]);
    // 29 minutes is still fresh (the window is 30).
    await prisma.session.update({
      where: { id: staff.auth.session.id },
      data: { authenticatedAt: new Date(Date.now() - 29 * 60 * 1000) },
    });
    expect((await beginAccess(staff.token, organization.id)).status).toBe(200);
    expect(() => authorizePlatformAdmin(noTwoFactor.auth, { fresh: false })).toThrow(/platformAdminTwoFactorRequired/);
  });

  it("counts only a password sign-in as fresh: enrolling two-factor or passing a code on an old session does not renew it", async () => {
    const { organization } = await organizationWithEvents();
    const user = await createUser({ isPlatformAdmin: true, twoFactor: false });
    const old = await signedIn(user.id);
    await prisma.session.update({
      where: { id: old.auth.session.id },
      data: { authenticatedAt: new Date(Date.now() - 10 * 24 * 3600 * 1000) },
    });
    const auth = (await validateSessionToken(old.token))!;
    await beginEnrollment(auth);
    const { totpKey } = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { totpKey: true } });
    await confirmEnrollment(auth, totpFor(new Uint8Array(totpKey!), currentStep()));
    const afterEnrolment = await beginAccess(old.token, organization.id);
    expect([afterEnrolment.status, afterEnrolment.json.message]).toEqual([403, "Please sign in again to continue."]);
    await verifySecondFactor((await validateSessionToken(old.token))!, totpFor(new Uint8Array(totpKey!), currentStep() + 1n));
    expect((await beginAccess(old.token, organization.id)).status).toBe(403);
  });

  it("reads nothing before a reason is stated, and refuses bad reasons without recording or opening anything", async () => {
    const { organization } = await organizationWithEvents();
    const staff = await signedInPlatformAdmin();
    const before = await list(staff.token, organization.id);
    expect([before.status, before.json.message]).toEqual([403, "State a reason for viewing this organization's audit log first."]);
    const actors = await callRpc("support/auditLog/actors", { sessionToken: staff.token, input: { organizationId: organization.id } });
    const detail = await callRpc("support/auditLog/detail", {
      sessionToken: staff.token,
      input: { organizationId: organization.id, eventId: randomUUID() },
    });
    expect([actors.status, detail.status]).toEqual([403, 403]);
    for (const [reason, ticket] of [
      ["", undefined],
      ["   too short   ", undefined],
      ["x".repeat(501), undefined],
      [42, undefined],
      ["A reason long enough\u0000", undefined],
      [REASON, "t".repeat(101)],
      [REASON, ["ZD-1"]],
    ] as const) {
      const refused = await beginAccess(staff.token, organization.id, reason, ticket);
      expect(refused.status, JSON.stringify([reason, ticket]).slice(0, 60)).toBe(400);
    }
    expect((await beginAccess(staff.token, randomUUID())).status).toBe(404);
    expect((await beginAccess(staff.token, "not-an-id")).status).toBe(404);
    expect(await recordsOf(staff.user.id)).toEqual([]);
    expect(await prisma.supportAccessGrant.count({ where: { adminUserId: staff.user.id } })).toBe(0);
  });

  it("lets a platform admin without membership read any organization's log, and records every read with the reason", async () => {
    const { organization, token: ownerToken } = await organizationWithEvents();
    const staff = await signedInPlatformAdmin({ name: "Sam Support" });
    const eventsBefore = await auditEventCount(organization.id);
    expect(await beginAccess(staff.token, organization.id, `  ${REASON}  `, " ZD-4711 ")).toMatchObject({ status: 200, json: {} });

    const page = await list(staff.token, organization.id, { action: "api_key.issued" });
    expect(page.status).toBe(200);
    const events = page.json.events as { id: string; action: string }[];
    expect(events.map((e) => e.action)).toEqual(["api_key.issued"]);
    const detail = await callRpc("support/auditLog/detail", {
      sessionToken: staff.token,
      input: { organizationId: organization.id, eventId: events[0]!.id },
    });
    expect([detail.status, (detail.json as { details?: unknown }).details]).toEqual([
      200,
      expect.objectContaining({ name: "Billing sync" }),
    ]);
    const actors = await callRpc("support/auditLog/actors", { sessionToken: staff.token, input: { organizationId: organization.id } });
    expect(actors.status).toBe(200);
    // A refused read records nothing: an unknown event, a forged cursor.
    const unknown = await callRpc("support/auditLog/detail", {
      sessionToken: staff.token,
      input: { organizationId: organization.id, eventId: randomUUID() },
    });
    expect(unknown.status).toBe(404);
    expect(
      (await list(staff.token, organization.id, { cursor: "o1.00000000000000000000000000000000.AAAAAAAAAAAAAAAAAAAAAA" })).status,
    ).toBe(400);

    const records = await recordsOf(staff.user.id);
    expect(records.map((r) => [r.action, r.subject])).toEqual([
      ["access.opened", null],
      ["audit_log.listed", "action=api_key.issued"],
      ["audit_event.viewed", events[0]!.id],
      ["audit_log.actors_listed", null],
    ]);
    for (const r of records) {
      expect([r.organizationId, r.reason, r.ticket]).toEqual([organization.id, REASON, "ZD-4711"]);
    }
    // None of it is in the organization's audit log, and no tenant answer carries the reason or ticket.
    expect(await auditEventCount(organization.id)).toBe(eventsBefore);
    const tenantAnswers = await Promise.all([
      callRpc("auditLog/list", { sessionToken: ownerToken, input: { organizationId: organization.id } }),
      callRpc("auditLog/actors", { sessionToken: ownerToken, input: { organizationId: organization.id } }),
      callRpc("auditLog/detail", { sessionToken: ownerToken, input: { organizationId: organization.id, eventId: events[0]!.id } }),
      callRpc("organization/members", { sessionToken: ownerToken, input: { organizationId: organization.id } }),
    ]);
    for (const answer of tenantAnswers) {
      expect(answer.status).toBe(200);
      for (const secret of [REASON, "ZD-4711", "Sam Support", staff.user.id, "support"]) expect(answer.text).not.toContain(secret);
    }
  });

  it("opens access per session: another session of the same admin states its own reason; a new reason replaces the old", async () => {
    const { organization } = await organizationWithEvents();
    const other = await organizationWithEvents();
    const staff = await signedInPlatformAdmin();
    expect((await beginAccess(staff.token, organization.id)).status).toBe(200);
    expect((await list(staff.token, organization.id)).status).toBe(200);
    // Access to one organization is not access to another.
    expect((await list(staff.token, other.organization.id)).status).toBe(403);
    const secondSession = await signedIn(staff.user.id, null, { twoFactorVerified: true });
    expect((await list(secondSession.token, organization.id)).status).toBe(403);
    expect((await beginAccess(staff.token, organization.id, "Follow-up on the same customer question")).status).toBe(200);
    await list(staff.token, organization.id);
    const last = (await recordsOf(staff.user.id)).at(-1)!;
    expect([last.action, last.reason, last.ticket]).toEqual(["audit_log.listed", "Follow-up on the same customer question", null]);
    // Signing out ends the grant with the session.
    await prisma.session.delete({ where: { id: staff.auth.session.id } });
    expect(await prisma.supportAccessGrant.count({ where: { adminUserId: staff.user.id } })).toBe(0);
  });

  it("keeps its records when the organization goes, and refuses to change or remove them", async () => {
    const { organization } = await organizationWithEvents();
    const staff = await signedInPlatformAdmin();
    await beginAccess(staff.token, organization.id);
    await list(staff.token, organization.id);
    await prisma.organization.delete({ where: { id: organization.id } });
    expect(await prisma.supportAccessGrant.count({ where: { organizationId: organization.id } })).toBe(0);
    expect((await recordsOf(staff.user.id)).length).toBe(2);
    await expect(pool().query("UPDATE support_actions SET reason = 'nothing to see'")).rejects.toThrow(
      /permission denied for table support_actions/,
    );
    await expect(pool().query("DELETE FROM support_actions")).rejects.toThrow(/permission denied for table support_actions/);
    await expect(pool().query("TRUNCATE support_actions")).rejects.toThrow(/permission denied for table support_actions/);
    const admin = authorizePlatformAdmin(staff.auth, { fresh: true });
    const { records } = await listSupportRecords(admin, { organizationId: organization.id });
    expect(records.map((r) => [r.action, r.organization])).toEqual([
      ["audit_log.listed", { id: organization.id, name: null }],
      ["access.opened", { id: organization.id, name: null }],
    ]);
  });
});

describe("the support records list", () => {
  it("filters by admin, organization and UTC days, pages newest first, and refuses a forged cursor", async () => {
    const [first, second] = [await signedInPlatformAdmin(), await signedInPlatformAdmin()];
    const { organization } = await organizationWithEvents();
    const other = await organizationWithEvents();
    await beginAccess(first.token, organization.id);
    for (let i = 0; i < SUPPORT_LOG_PAGE_SIZE + 5; i++) await list(first.token, organization.id);
    await beginAccess(second.token, other.organization.id);
    const admin = authorizePlatformAdmin(first.auth, { fresh: true });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listSupportRecords(admin, { adminId: first.user.id, ...(cursor ? { cursor } : {}) });
      seen.push(...page.records.map((r) => r.id));
      for (const r of page.records) expect(r.admin.id).toBe(first.user.id);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.length).toBe(SUPPORT_LOG_PAGE_SIZE + 6);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort().reverse()).toEqual(seen); // UUIDv7, newest first

    const byOrganization = await listSupportRecords(admin, { organizationId: other.organization.id });
    expect(byOrganization.records.map((r) => [r.action, r.admin.id])).toEqual([["access.opened", second.user.id]]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listSupportRecords(admin, { organizationId: other.organization.id, from: today, to: today })).records).toHaveLength(1);
    expect((await listSupportRecords(admin, { organizationId: other.organization.id, to: "2020-01-01" })).records).toHaveLength(0);
    const cursorOf = (values: unknown) => Buffer.from(JSON.stringify(values)).toString("base64url");
    for (const forged of [
      "x",
      "eyJ4Ijp0cnVlfQ",
      cursorOf(["not a date", "also not an id"]),
      // Dates JavaScript takes but PostgreSQL does not, and text PostgreSQL cannot take at all.
      cursorOf(["-271821-04-20T00:00:00.000Z", randomUUID()]),
      cursorOf(["2026-01-01T00:00:00.000Z\u0000", randomUUID()]),
    ]) {
      await expect(listSupportRecords(admin, { cursor: forged })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    // The admin filter offers today's platform admins, and a former one while the records are filtered by them.
    await prisma.user.update({ where: { id: second.user.id }, data: { isPlatformAdmin: false } });
    const choices = (await listSupportAdmins(admin)).map((a) => a.id);
    expect(choices).toContain(first.user.id);
    expect(choices).not.toContain(second.user.id);
    expect((await listSupportAdmins(admin, second.user.id)).map((a) => a.id)).toContain(second.user.id);
  });
});

describe("the organization search", () => {
  it("finds by name or slug (any case, wildcards taken literally) and by id, and pages through everything exactly once", async () => {
    const staff = await signedInPlatformAdmin();
    const admin = authorizePlatformAdmin(staff.auth, { fresh: true });
    const tag = randomUUID().slice(0, 8);
    const made = [];
    for (let i = 0; i < ORGANIZATION_SEARCH_PAGE_SIZE + 3; i++) {
      const organization = await createOrganizationWith([]);
      await prisma.organization.update({ where: { id: organization.id }, data: { name: `Search ${tag} ${String(i).padStart(2, "0")}` } });
      made.push(organization);
    }
    const percent = await createOrganizationWith([]);
    await prisma.organization.update({ where: { id: percent.id }, data: { name: `100% ${tag}_x` } });

    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await searchOrganizations(admin, { q: `SEARCH ${tag}`, ...(cursor ? { cursor } : {}) });
      found.push(...page.organizations.map((o) => o.name));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(found).toEqual(made.map((_, i) => `Search ${tag} ${String(i).padStart(2, "0")}`));
    expect((await searchOrganizations(admin, { q: "%" })).organizations.every((o) => o.name.includes("%") || o.slug.includes("%"))).toBe(
      true,
    );
    expect((await searchOrganizations(admin, { q: `${tag}_x` })).organizations.map((o) => o.id)).toEqual([percent.id]);
    expect((await searchOrganizations(admin, { q: `${tag}x` })).organizations).toEqual([]);
    expect((await searchOrganizations(admin, { q: made[3]!.id.toUpperCase() })).organizations.map((o) => o.id)).toEqual([made[3]!.id]);
    expect((await searchOrganizations(admin, { q: made[4]!.slug })).organizations.map((o) => o.id)).toEqual([made[4]!.id]);
    const cursorOf = (values: unknown) => Buffer.from(JSON.stringify(values)).toString("base64url");
    for (const forged of [
      "%%%",
      "eyJ4Ijp0cnVlfQ",
      cursorOf(["a", "not-a-uuid"]),
      cursorOf(["a\u0000b", randomUUID()]),
      cursorOf(["\ud800", randomUUID()]),
    ]) {
      await expect(searchOrganizations(admin, { cursor: forged })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
  });
});

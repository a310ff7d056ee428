// Reading the audit log: filters, keyset pagination, names resolved at read time, tenant isolation,
// and the tenant procedures (the support ones: support-console.test.ts).
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { describe, expect, it } from "vitest";
import { issueKey, revokeKey } from "../domain-calls";
import { filtersToSearchParams, parseAuditSearchParams } from "~/audit/audit-query";
import { recountRollups } from "~/audit/rollups.server";
import { getAuditEvent, listAuditActors, listAuditEvents } from "../domain-calls";
import { pool, prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { callRpc, joinOrganization, memberOfNewOrganization } from "../api-key-factories";
import { createUser } from "../factories";

/** Inserts events directly (the app's role may INSERT; only UPDATE and DELETE are refused), and
 * recounts their rollups as every bulk writer does. */
async function insertEvents(organizationId: string, events: { at: string; action?: string; actorId?: string }[]) {
  for (const event of events) {
    await pool().query(
      `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       VALUES ($1, $2::uuid, $3, $4, 'user', $5, 'organization', $2::text, '{}', 'x')`,
      [uuidv7(), organizationId, event.at, event.action ?? "organization.settings_changed", event.actorId ?? randomUUID()],
    );
  }
  await recountRollups(pool(), [organizationId]);
}

function badRequest(params: Record<string, string>): string {
  try {
    parseAuditSearchParams(new URLSearchParams(params));
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("BAD_REQUEST");
    return (error as DomainError).messageKey;
  }
  throw new Error("expected a 400");
}

describe("audit log query parameters", () => {
  it("refuses bad filters and cursors with a clear 400", () => {
    expect(badRequest({ from: "2026-02-30" })).toBe("auditLog.badDate");
    expect(badRequest({ to: "yesterday" })).toBe("auditLog.badDate");
    expect(badRequest({ from: "2026-03-02", to: "2026-03-01" })).toBe("auditLog.badRange");
    expect(badRequest({ action: "'; DROP TABLE audit_events; --" })).toBe("auditLog.badAction");
    expect(badRequest({ actorId: "x".repeat(500) })).toBe("auditLog.badActor");
    expect(badRequest({ cursor: "not-a-cursor!" })).toBe("auditLog.badCursor");
    expect(badRequest({ cursor: "a".repeat(201) })).toBe("auditLog.badCursor");
    expect(badRequest({ targetId: "<script>" })).toBe("auditLog.badTarget");
    expect(badRequest({ event: "123" })).toBe("auditLog.badEvent");
  });

  it("offers 25 (the default), 50 or 100 events per page, and nothing else", () => {
    expect(parseAuditSearchParams(new URLSearchParams()).perPage).toBe(25);
    expect(parseAuditSearchParams(new URLSearchParams({ perPage: "" })).perPage).toBe(25);
    for (const size of [25, 50, 100]) expect(parseAuditSearchParams(new URLSearchParams({ perPage: String(size) })).perPage).toBe(size);
    for (const bad of ["0", "1", "24", "26", "1000", "-25", "25.0", "2.5e1", "0x19", "fifty", "25;", "9".repeat(400)]) {
      expect(badRequest({ perPage: bad }), bad).toBe("auditLog.badPerPage");
    }
    // Not a filter: the export reads none of it, and links that keep the filters keep it only when not the default.
    expect(filtersToSearchParams({ action: "api_key.issued" }, 25).toString()).toBe("action=api_key.issued");
    expect(filtersToSearchParams({ action: "api_key.issued" }, 100).toString()).toBe("action=api_key.issued&perPage=100");
  });

  it("refuses years outside 2000-9999 in filters and cursors (PostgreSQL has no year 0)", () => {
    for (const day of ["0000-01-01", "1999-12-31"]) {
      expect(badRequest({ from: day })).toBe("auditLog.dateOutOfRange");
      expect(badRequest({ to: day })).toBe("auditLog.dateOutOfRange");
    }
    expect(badRequest({ from: "10000-01-01" })).toBe("auditLog.badDate");
    expect(parseAuditSearchParams(new URLSearchParams({ from: "2000-01-01", to: "9999-12-31" })).filters).toEqual({
      from: "2000-01-01",
      to: "9999-12-31",
    });
  });

  it("treats empty parameters as absent", () => {
    expect(parseAuditSearchParams(new URLSearchParams({ action: "", actorId: " ", from: "", to: "" })).filters).toEqual({});
  });
});

describe("audit log list", () => {
  it("pages through every event exactly once, newest first (keyset)", async () => {
    const { organization } = await memberOfNewOrganization();
    const base = Date.parse("2026-05-01T00:00:00Z");
    // 120 events, some sharing a timestamp, so the id breaks ties.
    await insertEvents(
      organization.id,
      Array.from({ length: 120 }, (_, i) => ({ at: new Date(base + Math.floor(i / 3) * 1000).toISOString() })),
    );
    const seen: string[] = [];
    let cursor;
    let pages = 0;
    do {
      const page = await listAuditEvents(organization.id, {}, cursor ?? undefined);
      seen.push(...page.events.map((e) => `${e.createdAt}|${e.id}`));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(120);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it("filters by action, actor and UTC date range (inclusive days)", async () => {
    const { organization } = await memberOfNewOrganization();
    const alice = randomUUID();
    await insertEvents(organization.id, [
      { at: "2026-03-01T00:00:00Z", actorId: alice },
      { at: "2026-03-01T23:59:59.999Z", action: "api_key.revoked" },
      { at: "2026-03-02T00:00:00Z", actorId: alice, action: "api_key.revoked" },
      { at: "2026-02-28T23:59:59.999Z" },
    ]);
    const count = async (filters: Parameters<typeof listAuditEvents>[1]) => (await listAuditEvents(organization.id, filters)).events.length;
    expect(await count({})).toBe(4);
    expect(await count({ action: "api_key.revoked" })).toBe(2);
    expect(await count({ actorId: alice })).toBe(2);
    expect(await count({ from: "2026-03-01", to: "2026-03-01" })).toBe(2);
    expect(await count({ from: "2026-03-02" })).toBe(1);
    expect(await count({ to: "2026-02-28" })).toBe(1);
    expect(await count({ actorId: alice, action: "api_key.revoked", from: "2026-03-02", to: "2026-03-02" })).toBe(1);
  });

  it("resolves names from current records and marks deleted ones", async () => {
    const { organization, auth, user } = await memberOfNewOrganization();
    const { key } = await issueKey(auth, organization.id, { name: "Deploy bot", scopes: ["organization:read"] });
    // A rename made directly in the database: the log shows the current name, not the one recorded.
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: organization.id, id: key.id } },
      data: { name: "Renamed bot" },
    });
    await prisma.user.update({ where: { id: user.id }, data: { name: "New Name" } });
    const [event] = (await listAuditEvents(organization.id, {})).events;
    expect(event).toMatchObject({ action: "api_key.issued", actor: { name: "New Name", detail: user.email }, targetType: "api_key" });
    expect(event!.target).toEqual({ name: "Renamed bot" });
    expect(event).not.toHaveProperty("details");
    await prisma.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
    expect((await listAuditEvents(organization.id, {})).events[0]!.actor).toEqual({ name: null });
  });

  it("never resolves names of another organization's records", async () => {
    const mine = await memberOfNewOrganization();
    const theirs = await memberOfNewOrganization();
    const { key } = await issueKey(theirs.auth, theirs.organization.id, { name: "Their secret project", scopes: ["member:read"] });
    await pool().query(
      `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       VALUES ($1, $2, 'api_key.revoked', 'user', $3, 'api_key', $4, '{"name":"x"}', 'x')`,
      [uuidv7(), mine.organization.id, mine.user.id, key.id],
    );
    const [event] = (await listAuditEvents(mine.organization.id, {})).events;
    expect(event!.target).toEqual({ name: null });
  });
});

describe("audit event detail and actors", () => {
  it("loads details on demand, and 404s another organization's event", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    const { key } = await issueKey(auth, organization.id, { name: "Worker", scopes: ["billing:view"] });
    await revokeKey(auth, organization.id, key.id);
    const [revoked] = (await listAuditEvents(organization.id, {})).events;
    const detail = await getAuditEvent(organization.id, revoked!.id);
    expect(detail.details).toEqual({ name: "Worker" });
    const other = await memberOfNewOrganization();
    await expect(getAuditEvent(other.organization.id, revoked!.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("names the person an accepted invitation made a member by today's name and address, or as deleted", async () => {
    const { organization } = await memberOfNewOrganization();
    const joiner = await createUser({ name: "Jo Joiner" });
    const insert = async (userId: string) => {
      const id = uuidv7();
      await pool().query(
        `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
         VALUES ($1, $2::uuid, 'invitation.accepted', 'user', $3, 'invitation', $4, $5::jsonb, 'x')`,
        [id, organization.id, userId, randomUUID(), JSON.stringify({ role: "member", userId })],
      );
      return id;
    };
    const accepted = await insert(joiner.id);
    expect((await getAuditEvent(organization.id, accepted)).people).toEqual({ userId: { name: "Jo Joiner", detail: joiner.email } });
    // An id that no account has (or never could have) reads as deleted, never as an error.
    expect((await getAuditEvent(organization.id, await insert(randomUUID()))).people).toEqual({ userId: { name: null } });
    expect((await getAuditEvent(organization.id, await insert("not-a-uuid"))).people).toEqual({ userId: { name: null } });
    await prisma.user.update({ where: { id: joiner.id }, data: { deletedAt: new Date() } });
    expect((await getAuditEvent(organization.id, accepted)).people).toEqual({ userId: { name: null } });
  });

  it("lists each actor once with its name", async () => {
    const { organization, auth, user } = await memberOfNewOrganization();
    await issueKey(auth, organization.id, { name: "One", scopes: ["billing:view"] });
    await issueKey(auth, organization.id, { name: "Two", scopes: ["billing:view"] });
    expect(await listAuditActors(organization.id)).toEqual([{ kind: "user", id: user.id, name: user.name, detail: user.email }]);
  });
});

describe("audit procedures", () => {
  it("auditLog.* need audit:view in the active organization", async () => {
    const { organization, token, auth } = await memberOfNewOrganization();
    await issueKey(auth, organization.id, { name: "K", scopes: ["billing:view"] });
    const list = await callRpc("auditLog/list", { sessionToken: token, input: { organizationId: organization.id } });
    expect(list.status).toBe(200);
    expect((list.json as unknown as { events: unknown[] }).events).toHaveLength(1);
    const member = await joinOrganization(organization.id, "member");
    expect((await callRpc("auditLog/list", { sessionToken: member.token, input: { organizationId: organization.id } })).status).toBe(403);
    expect((await callRpc("auditLog/actors", { sessionToken: member.token, input: { organizationId: organization.id } })).status).toBe(403);
    const bad = await callRpc("auditLog/list", { sessionToken: token, input: { organizationId: organization.id, from: "2026-13-01" } });
    expect([bad.status, bad.json.code]).toEqual([400, "BAD_REQUEST"]);
    const unknown = await callRpc("auditLog/detail", {
      sessionToken: token,
      input: { organizationId: organization.id, eventId: randomUUID() },
    });
    expect(unknown.status).toBe(404);
    // An empty id used to match "any event of the organization".
    for (const eventId of ["", "   "]) {
      const empty = await callRpc("auditLog/detail", { sessionToken: token, input: { organizationId: organization.id, eventId } });
      expect([empty.status, empty.json.code]).toEqual([400, "BAD_REQUEST"]);
      expect(JSON.stringify(empty.json)).toContain("The event ID is not valid.");
    }
    await expect(getAuditEvent(organization.id, "")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const yearZero = await callRpc("auditLog/list", {
      sessionToken: token,
      input: { organizationId: organization.id, from: "0000-01-01" },
    });
    expect([yearZero.status, yearZero.json.code]).toEqual([400, "BAD_REQUEST"]);
  });
});

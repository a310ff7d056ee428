// The audit view at scale (issue 10): signed cursors (forged, edited, another organization's,
// other filters'), paging both ways while events arrive, the target filter, names at read time,
// the activity chart's counts, the actors list, the query plans (index scans, no sort, no
// sequential scan), and the client cache rules. Real PostgreSQL.
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { beforeAll, describe, expect, it } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import { AUDIT_QUERY_CACHE, parseAuditSearchParams, type AuditFilters } from "~/audit/audit-query";
import { auditCursorSecret, signAuditCursor, verifyAuditCursor } from "~/audit/cursor.server";
import { auditActivity } from "~/audit/activity.server";
import { recountRollups } from "~/audit/rollups.server";
import { loadAuditPage } from "~/audit/audit-page.server";
import { auditPageSql, listAuditActors, listAuditActorsSql, listAuditEvents } from "~/audit/query.server";
import { rpcQueries } from "~/client/rpc";
import { pool, prisma } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { callRpc, memberOfNewOrganization } from "../api-key-factories";
import { exportedRows } from "../domain-calls";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

type Owner = Awaited<ReturnType<typeof memberOfNewOrganization>>;

async function reader(owner: Owner) {
  return authorizeOrganization(owner.auth, owner.organization.id, "audit:view");
}

/** Inserts events at the given instants (oldest first), returning their ids. */
async function insertEvents(
  organizationId: string,
  events: { at: Date; action?: string; actorKind?: string; actorId?: string; targetType?: string; targetId?: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const e of events) {
    const id = uuidv7();
    ids.push(id);
    await pool().query(
      `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       VALUES ($1, $2::uuid, $3, $4, $8::"ActorKind", $5, $6, $7, '{}', 'x')`,
      [
        id,
        organizationId,
        e.at,
        e.action ?? "organization.settings_changed",
        e.actorId ?? randomUUID(),
        e.targetType ?? "organization",
        e.targetId ?? organizationId,
        e.actorKind ?? "user",
      ],
    );
  }
  // Written past the recorder: its rollups are recounted as every bulk writer's are.
  await recountRollups(pool(), [organizationId]);
  return ids;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("BAD_REQUEST");
    return (error as DomainError).messageKey;
  }
  throw new Error("expected a 400");
}

const query = (params: Record<string, string>) => parseAuditSearchParams(new URLSearchParams(params));

describe("signed cursors", () => {
  it("refuse forged, edited, other-organization and other-filter cursors with a 400, before any row is read", async () => {
    const mine = await memberOfNewOrganization();
    const theirs = await memberOfNewOrganization();
    const at = new Date("2026-06-01T00:00:00Z");
    await insertEvents(
      mine.organization.id,
      Array.from({ length: 60 }, (_, i) => ({ at: new Date(at.getTime() + i * 1000), action: "api_key.issued" })),
    );
    await insertEvents(theirs.organization.id, [{ at }]);
    const first = await listAuditEvents(await reader(mine), query({}));
    const next = first.nextCursor!;
    expect(next).toMatch(/^o[0-9a-z]+\.[0-9a-f]{32}\.[A-Za-z0-9_-]{22}$/);

    // The genuine cursor works.
    expect((await listAuditEvents(await reader(mine), query({ cursor: next }))).events).toHaveLength(10);
    // Edited: another instant, another id, another direction, another signature.
    const [payloadTime, id, mac] = next.split(".") as [string, string, string];
    const edits = [
      `${payloadTime.slice(0, -1)}${payloadTime.endsWith("0") ? "1" : "0"}.${id}.${mac}`,
      `${payloadTime}.${id.slice(0, -1)}${id.endsWith("0") ? "1" : "0"}.${mac}`,
      `n${payloadTime.slice(1)}.${id}.${mac}`,
      `${payloadTime}.${id}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`,
      // Forged: the right shape, a made-up signature.
      `o${Date.now().toString(36)}.${randomUUID().replaceAll("-", "")}.${"A".repeat(22)}`,
      "not.a.cursor",
    ];
    for (const cursor of edits) expect(await refusal(listAuditEvents(await reader(mine), query({ cursor })))).toBe("auditLog.badCursor");
    // Another organization's reader, the same cursor: refused, no rows of either.
    expect(await refusal(listAuditEvents(await reader(theirs), query({ cursor: next })))).toBe("auditLog.badCursor");
    // The same organization with other filters: refused (the cursor belongs to its filter set).
    expect(await refusal(listAuditEvents(await reader(mine), query({ cursor: next, action: "api_key.issued" })))).toBe(
      "auditLog.badCursor",
    );
    // A key made for another purpose (or another server) does not verify.
    const filters: AuditFilters = {};
    const foreign = signAuditCursor(Buffer.alloc(32, 7), mine.organization.id, filters, {
      createdAt: at,
      id: randomUUID(),
      direction: "older",
    });
    expect(() => verifyAuditCursor(Buffer.alloc(32, 8), mine.organization.id, filters, foreign)).toThrow(DomainError);
  });

  it("answer a tampered cursor on /rpc and on the page with a translated 400, never a 500", async () => {
    const owner = await memberOfNewOrganization();
    await insertEvents(
      owner.organization.id,
      Array.from({ length: 55 }, (_, i) => ({ at: new Date(Date.UTC(2026, 5, 1, 0, 0, i)) })),
    );
    const first = await callRpc("auditLog/list", { sessionToken: owner.token, input: { organizationId: owner.organization.id } });
    expect(first.status).toBe(200);
    const cursor = (first.json as { nextCursor: string }).nextCursor;
    const edited = cursor.replace(/\.[0-9a-f]/, (m) => (m === ".0" ? ".1" : ".0"));
    const answer = await callRpc("auditLog/list", {
      sessionToken: owner.token,
      input: { organizationId: owner.organization.id, cursor: edited },
    });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.json)).toContain("The page link is invalid or outdated");
    const german = await callRpc("auditLog/list", {
      sessionToken: owner.token,
      input: { organizationId: owner.organization.id, cursor: edited },
      headers: { "accept-language": "de" },
    });
    expect(JSON.stringify(german.json)).toContain("Der Seitenlink ist ungültig");
    await expect(loadAuditPage(await reader(owner), new URLSearchParams({ cursor: edited }))).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("share one signing key per database, made once even when instances race for it", async () => {
    const keys = await Promise.all(Array.from({ length: 5 }, () => auditCursorSecret()));
    expect(new Set(keys.map((k) => k.toString("hex"))).size).toBe(1);
    const { rows } = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM server_secrets WHERE name = 'audit-cursor'");
    expect(rows[0]!.n).toBe(1);
  });
});

describe("paging both ways", () => {
  it("goes forwards and back without repeating or skipping rows while new events arrive", async () => {
    const owner = await memberOfNewOrganization();
    const base = Date.UTC(2026, 6, 1);
    // 130 events, several sharing an instant, so the id breaks ties.
    await insertEvents(
      owner.organization.id,
      Array.from({ length: 130 }, (_, i) => ({ at: new Date(base + Math.floor(i / 4) * 1000) })),
    );
    const access = await reader(owner);
    const page1 = await listAuditEvents(access, query({}));
    expect(page1.prevCursor).toBeNull();
    const page2 = await listAuditEvents(access, query({ cursor: page1.nextCursor! }));
    const page3 = await listAuditEvents(access, query({ cursor: page2.nextCursor! }));
    expect(page3.nextCursor).toBeNull();
    const all = [...page1.events, ...page2.events, ...page3.events].map((e) => e.id);
    expect(all).toHaveLength(130);
    expect(new Set(all).size).toBe(130);

    // New events arrive at the top while someone is on page 3.
    await insertEvents(
      owner.organization.id,
      Array.from({ length: 7 }, (_, i) => ({ at: new Date(base + 10_000_000 + i) })),
    );
    const back2 = await listAuditEvents(access, query({ cursor: page3.prevCursor! }));
    expect(back2.events.map((e) => e.id)).toEqual(page2.events.map((e) => e.id));
    const back1 = await listAuditEvents(access, query({ cursor: back2.prevCursor! }));
    expect(back1.events.map((e) => e.id)).toEqual(page1.events.map((e) => e.id));
    // Above the old first page there are now newer events: one more step back shows them.
    expect(back1.prevCursor).not.toBeNull();
    const newest = await listAuditEvents(access, query({ cursor: back1.prevCursor! }));
    expect(newest.events).toHaveLength(7);
    expect(newest.prevCursor).toBeNull();
    expect(newest.nextCursor).not.toBeNull();
    // And forwards again from page 2 reaches the same page 3.
    const again3 = await listAuditEvents(access, query({ cursor: back2.nextCursor! }));
    expect(again3.events.map((e) => e.id)).toEqual(page3.events.map((e) => e.id));
  });

  it("shows 25 events per page unless 50 or 100 are asked for, and another size keeps the position", async () => {
    const owner = await memberOfNewOrganization();
    const base = Date.UTC(2026, 6, 2);
    const ids = await insertEvents(
      owner.organization.id,
      Array.from({ length: 120 }, (_, i) => ({ at: new Date(base + i * 1000) })),
    );
    const newestFirst = [...ids].reverse();
    const access = await reader(owner);
    const page = (params: Record<string, string>) => loadAuditPage(access, new URLSearchParams(params));
    const first = await page({});
    expect(first.perPage).toBe(25);
    expect(first.events.map((e) => e.id)).toEqual(newestFirst.slice(0, 25));
    expect((await page({ perPage: "100" })).events.map((e) => e.id)).toEqual(newestFirst.slice(0, 100));
    // The cursor names a position, not a page number: with 50 per page the next page starts where
    // the 25-row one would have, and going back from there shows the 50 rows just above it.
    const next50 = await page({ cursor: first.nextCursor!, perPage: "50" });
    expect(next50.events.map((e) => e.id)).toEqual(newestFirst.slice(25, 75));
    const back50 = await page({ cursor: next50.prevCursor!, perPage: "50" });
    expect(back50.events.map((e) => e.id)).toEqual(newestFirst.slice(0, 25));
    expect(back50.prevCursor).toBeNull();
    const last = await page({ cursor: next50.nextCursor!, perPage: "50" });
    expect(last.events.map((e) => e.id)).toEqual(newestFirst.slice(75, 120));
    expect(last.nextCursor).toBeNull();
    await expect(page({ perPage: "1000" })).rejects.toMatchObject({ code: "BAD_REQUEST", messageKey: "auditLog.badPerPage" });
  });

  it("filters one target's history, and keeps filters bound to their cursors", async () => {
    const owner = await memberOfNewOrganization();
    const keyId = randomUUID();
    const at = Date.UTC(2026, 7, 1);
    await insertEvents(owner.organization.id, [
      ...Array.from({ length: 60 }, (_, i) => ({
        at: new Date(at + i * 1000),
        action: "api_key.rotated",
        targetType: "api_key",
        targetId: keyId,
      })),
      ...Array.from({ length: 30 }, (_, i) => ({ at: new Date(at + i * 1000 + 500) })),
    ]);
    const access = await reader(owner);
    const first = await listAuditEvents(access, query({ targetId: keyId }));
    expect(first.events.every((e) => e.targetId === keyId)).toBe(true);
    const second = await listAuditEvents(access, query({ targetId: keyId, cursor: first.nextCursor! }));
    expect(first.events.length + second.events.length).toBe(60);
    const page = await loadAuditPage(access, new URLSearchParams({ targetId: keyId }));
    expect(page.target).toMatchObject({ id: keyId, type: "api_key" });
  });
});

describe("names at read time", () => {
  it("shows current names, marks deleted users, drops a deleted invitation's address, keeps unknown actions", async () => {
    const owner = await memberOfNewOrganization();
    const organizationId = owner.organization.id;
    const invitation = await prisma.invitation.create({
      data: { organizationId, email: "label@example.com", role: "member", expiresAt: new Date(Date.now() + 86_400_000) },
    });
    const at = Date.UTC(2026, 8, 1);
    await insertEvents(organizationId, [
      { at: new Date(at), action: "invitation.sent", actorId: owner.user.id, targetType: "invitation", targetId: invitation.id },
      { at: new Date(at + 1000), action: "legacy.thing_happened", actorId: owner.user.id },
    ]);
    const access = await reader(owner);
    const [unknown, first] = (await listAuditEvents(access, query({}))).events;
    expect(unknown!.action).toBe("legacy.thing_happened");
    expect(first!.target).toEqual({ name: "label@example.com" });
    expect(first!.actor.name).toBe(owner.user.name);

    await prisma.user.update({ where: { id: owner.user.id }, data: { name: "Renamed Owner" } });
    let [, sent] = (await listAuditEvents(access, query({}))).events;
    expect(sent!.actor.name).toBe("Renamed Owner");

    await prisma.invitation.delete({ where: { organizationId_id: { organizationId: organizationId, id: invitation.id } } });
    await prisma.user.update({ where: { id: owner.user.id }, data: { deletedAt: new Date() } });
    [, sent] = (await listAuditEvents(access, query({}))).events;
    expect(sent!.target).toEqual({ name: null });
    expect(sent!.targetId).toBe(invitation.id);
    expect(sent!.actor).toEqual({ name: null });
    expect(sent!.actorId).toBe(owner.user.id);
  });
});

describe("an API key as the actor", () => {
  // Events may name an API key of the organization as their actor (docs/product-rules.md, Audit
  // event). The name expressions once read the user lookup first and took its empty row for a
  // deleted user, so a key was shown as deleted in the list, the drawer, the actor filter and the export.
  it("is named by the key in the list, the detail, the actor filter and the export", async () => {
    const owner = await memberOfNewOrganization();
    const organizationId = owner.organization.id;
    const keyId = randomUUID();
    await pool().query(
      `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id)
       VALUES ($1::uuid, $2::uuid, 'Deploy bot', ARRAY['audit:view'], decode(md5(random()::text) || md5(random()::text), 'hex'), 'sk_testkey', $3::uuid)`,
      [keyId, organizationId, owner.user.id],
    );
    const [eventId] = await insertEvents(organizationId, [{ at: new Date(Date.UTC(2026, 2, 1)), actorKind: "api_key", actorId: keyId }]);
    const access = await reader(owner);
    const [listed] = (await listAuditEvents(access, query({}))).events;
    expect(listed).toMatchObject({ actorKind: "api_key", actorId: keyId, actor: { name: "Deploy bot" } });
    const page = await loadAuditPage(access, new URLSearchParams({ event: eventId! }));
    expect(page.event?.actor).toEqual({ name: "Deploy bot" });
    expect(await listAuditActors(access)).toEqual([{ kind: "api_key", id: keyId, name: "Deploy bot" }]);
    // The export names it from its directory and, for an organization with too many names, with
    // the COPY's lookups: the same either way.
    await prisma.organization.update({ where: { id: organizationId }, data: { planId: "enterprise" } });
    for (const [nameDirectoryLimit, way] of [
      [undefined, "directory"],
      [0, "lookups"],
    ] as const) {
      const exported = await exportedRows(owner.auth, organizationId, {}, { nameDirectoryLimit });
      expect(exported.namesFrom).toBe(way);
      expect(exported.rows.filter((row) => row.action !== "audit.exported").map((row) => row.actorName)).toEqual(["Deploy bot"]);
    }
  });
});

describe("actors and activity", () => {
  it("lists each actor once (from the table the trigger keeps) with current names", async () => {
    const owner = await memberOfNewOrganization();
    const other = randomUUID();
    await insertEvents(owner.organization.id, [
      ...Array.from({ length: 20 }, (_, i) => ({ at: new Date(Date.UTC(2026, 1, 1, 0, 0, i)), actorId: owner.user.id })),
      ...Array.from({ length: 5 }, (_, i) => ({ at: new Date(Date.UTC(2026, 1, 2, 0, 0, i)), actorId: other })),
      { at: new Date(Date.UTC(2026, 1, 3)), actorId: "system" },
    ]);
    const actors = await listAuditActors(await reader(owner));
    expect(actors.map((a) => a.id).sort()).toEqual([owner.user.id, other, "system"].sort());
    expect(actors.find((a) => a.id === owner.user.id)).toMatchObject({ name: owner.user.name, detail: owner.user.email });
    expect(actors.find((a) => a.id === other)).toMatchObject({ name: null });
  });

  it("counts events per UTC day from the rollup, and per actor or target from their index", async () => {
    const owner = await memberOfNewOrganization();
    const actor = randomUUID();
    await insertEvents(owner.organization.id, [
      { at: new Date("2026-03-01T00:00:00.000Z"), actorId: actor },
      { at: new Date("2026-03-01T23:59:59.999Z"), action: "api_key.revoked" },
      { at: new Date("2026-03-03T12:00:00.000Z"), action: "api_key.revoked", actorId: actor },
      { at: new Date("2026-02-28T23:59:59.999Z") },
    ]);
    // The rollup agrees with the events (kept by the trigger in the same transaction).
    const { rows } = await pool().query<{ day: string; events: number }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(events)::int AS events FROM audit_event_days WHERE organization_id = $1 GROUP BY day ORDER BY day",
      [owner.organization.id],
    );
    expect(rows).toEqual([
      { day: "2026-02-28", events: 1 },
      { day: "2026-03-01", events: 2 },
      { day: "2026-03-03", events: 1 },
    ]);
    const access = await reader(owner);
    const days = await auditActivity(access, query({ from: "2026-02-28", to: "2026-03-03" }));
    expect(days).toEqual([
      { day: "2026-02-28", events: 1 },
      { day: "2026-03-01", events: 2 },
      { day: "2026-03-02", events: 0 },
      { day: "2026-03-03", events: 1 },
    ]);
    expect(
      (await auditActivity(access, query({ from: "2026-02-28", to: "2026-03-03", action: "api_key.revoked" }))).map((d) => d.events),
    ).toEqual([0, 1, 0, 1]);
    expect((await auditActivity(access, query({ from: "2026-02-28", to: "2026-03-03", actorId: actor }))).map((d) => d.events)).toEqual([
      0, 1, 0, 1,
    ]);
    // A long range shows its last 90 days; no range, the last 30 days up to today.
    expect(await auditActivity(access, query({ from: "2025-01-01", to: "2026-03-03" }))).toHaveLength(90);
    expect(await auditActivity(access, query({}))).toHaveLength(30);
  });
});

describe("query plans on a seeded table", () => {
  let big: Owner;
  const actorId = randomUUID();
  const keyId = randomUUID();

  beforeAll(async () => {
    big = await memberOfNewOrganization();
    const other = await memberOfNewOrganization();
    // 30,000 events here and 30,000 in another organization, interleaved in time.
    for (const [organizationId, offset] of [
      [big.organization.id, 0],
      [other.organization.id, 500],
    ] as const) {
      await pool().query(
        `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
         SELECT gen_random_uuid(), $1::uuid, timestamptz '2025-01-01' + (i * interval '1 second') + ($2 * interval '1 millisecond'),
                (ARRAY['api_key.issued','api_key.revoked','member.role_changed','organization.settings_changed'])[1 + i % 4],
                'user', CASE WHEN i % 10 = 0 THEN $3 ELSE md5(i::text) END,
                CASE WHEN i % 7 = 0 THEN 'api_key' ELSE 'organization' END,
                CASE WHEN i % 7 = 0 THEN $4 ELSE $1 END, '{}', 'x'
         FROM generate_series(1, 30000) AS i`,
        [organizationId, offset, actorId, keyId],
      );
      await recountRollups(pool(), [organizationId]);
    }
    // As the owner: ANALYZE by anyone else (the app's role) is skipped with a warning.
    await queryOnce(process.env.DATABASE_URL!, "ANALYZE audit_events");
  }, 60_000);

  interface PlanNode {
    "Node Type": string;
    "Relation Name"?: string;
    Plans?: PlanNode[];
  }

  /**
   * Every node of the plans, flattened: the plan for these values, and the generic plan that a
   * prepared statement (queryPrepared) settles on after a few runs, for any values.
   */
  async function planNodes(sql: Prisma.Sql): Promise<PlanNode[]> {
    const [custom] = await prisma.$queryRaw<{ "QUERY PLAN": { Plan: PlanNode }[] }[]>(Prisma.sql`EXPLAIN (FORMAT JSON) ${sql}`);
    const generic = await pool().query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${sql.text}`);
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node);
      node.Plans?.forEach(walk);
    };
    walk(custom!["QUERY PLAN"][0]!.Plan);
    walk(generic.rows[0]!["QUERY PLAN"][0]!.Plan);
    return nodes;
  }

  function expectIndexedWithoutSort(nodes: PlanNode[]) {
    const types = nodes.map((n) => n["Node Type"]);
    expect(types).not.toContain("Sort");
    expect(types).not.toContain("Incremental Sort");
    const onEvents = nodes.filter((n) => n["Relation Name"] === "audit_events").map((n) => n["Node Type"]);
    expect(onEvents.length).toBeGreaterThan(0);
    for (const type of onEvents) expect(type).toMatch(/^Index (Only )?Scan$/);
  }

  it("reads every list page, filter and direction through an index, without sorting", async () => {
    const organizationId = big.organization.id;
    const position = { createdAt: new Date("2025-01-01T04:00:00Z"), id: randomUUID() };
    const cases: [string, Record<string, string>][] = [
      ["first page", {}],
      ["action", { action: "api_key.revoked" }],
      ["actor", { actorId }],
      ["target", { targetId: keyId }],
      ["one week", { from: "2025-01-01", to: "2025-01-07" }],
    ];
    for (const [, params] of cases) {
      const q = query(params);
      for (const pos of [null, { ...position, direction: "older" as const }, { ...position, direction: "newer" as const }]) {
        expectIndexedWithoutSort(await planNodes(auditPageSql(organizationId, q, pos, 51)));
      }
    }
  });

  it("lists the actors from the actors table by its index (no scan of the events)", async () => {
    const access = await reader(big);
    const actors = await listAuditActors(access);
    expect(actors.length).toBeGreaterThan(100);
    const nodes = await planNodes(listAuditActorsSql(big.organization.id));
    // A few hundred rows here, so PostgreSQL may rightly scan and sort them; at scale it reads the
    // primary key's (organization_id, actor_id) range (bench/audit-view.ts). What must never
    // happen is a read of the events themselves.
    const relations = nodes.map((n) => n["Relation Name"]).filter(Boolean);
    expect(relations).toContain("audit_event_actors");
    expect(relations).not.toContain("audit_events");
  });
});

describe("the browser's audit query cache", () => {
  it("keys the tenant and support namespaces apart and drops inactive audit queries at once", () => {
    const input = { organizationId: randomUUID(), eventId: randomUUID() };
    const tenant = rpcQueries.auditLog.detail.queryOptions({ input, ...AUDIT_QUERY_CACHE });
    const support = rpcQueries.support.auditLog.detail.queryOptions({ input, ...AUDIT_QUERY_CACHE });
    expect(JSON.stringify(tenant.queryKey)).not.toEqual(JSON.stringify(support.queryKey));
    expect(JSON.stringify(tenant.queryKey)).toContain("auditLog");
    expect(JSON.stringify(support.queryKey)).toContain("support");
    expect(tenant.gcTime).toBe(0);
    expect(support.gcTime).toBe(0);
  });
});

// The audit log export (GET /api/organizations/:id/audit-log/export) over real HTTP, through the
// request edge and the built app, against PostgreSQL: every gate and status in the product rules'
// order (a request failing two gets the first one's answer), bad input answered 4xx and never
// recorded, CSV formula escaping over generated names read back by a CSV parser, NDJSON lines,
// names resolved at export time, filters identical to the page's, exactly one audit.exported per
// export, one snapshot while events keep arriving, a client that leaves ending the query, the rate
// limits under concurrent requests, the plan catalog switch, and the query plan.
import { randomUUID } from "node:crypto";
import { parse as parseCsv } from "csv-parse/sync";
import fc from "fast-check";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditExportBlocker, authorizeAuditExport, authorizeOrganization } from "~/access/organization-access.server";
import { parseAuditSearchParams, filtersToSearchParams, type AuditFilters } from "~/audit/audit-query";
import { EXPORT_COLUMNS } from "~/audit/export/columns";
import { exportSelectSql, EXPORT_SETTINGS } from "~/audit/export/sql.server";
import { listAuditEvents } from "~/audit/query.server";
import { recountRollups } from "~/audit/rollups.server";
import { createSession, validateSessionToken } from "~/auth/session.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { PLANS } from "~/plans/catalog";
import { pool, prisma } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import type { Role } from "~/generated/prisma/enums";
import { exportedRows, ndjsonRows } from "../domain-calls";
import { createOrganizationWith, createUser } from "../factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

let server: InProcessServer;
let origin: string;

beforeAll(async () => {
  server = await startInProcessServer();
  origin = server.origin;
});

afterAll(() => server.close());

// Every test starts with the export rate limits unused.
beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

interface Member {
  userId: string;
  organizationId: string;
  slug: string;
  cookie: string;
}

/** A user with `role` in a new organization (Enterprise unless said otherwise), signed in with it active. */
async function memberOf(
  options: {
    role?: Role;
    plan?: string;
    requireTwoFactor?: boolean;
    twoFactor?: boolean;
    organizationId?: string;
    active?: string | null;
  } = {},
): Promise<Member> {
  const user = await createUser();
  if (options.twoFactor) await prisma.user.update({ where: { id: user.id }, data: { twoFactorEnabledAt: new Date() } });
  let organizationId = options.organizationId;
  if (organizationId) {
    await prisma.membership.create({ data: { organizationId, userId: user.id, role: options.role ?? "owner" } });
  } else {
    organizationId = (
      await createOrganizationWith([{ userId: user.id, role: options.role ?? "owner" }], {
        planId: options.plan ?? "enterprise",
        requireTwoFactor: options.requireTwoFactor ?? false,
      })
    ).id;
  }
  const { slug } = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { slug: true } });
  const active = options.active === undefined ? organizationId : options.active;
  const { token } = await createSession(user.id, { twoFactorVerified: Boolean(options.twoFactor), activeOrganizationId: active });
  return { userId: user.id, organizationId, slug, cookie: `${sessionCookieName()}=${token}` };
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: { code?: string; message?: string } | null;
}

const exportPath = (organizationId: string, query = "") =>
  `/api/organizations/${organizationId}/audit-log/export${query ? `?${query}` : ""}`;

async function get(path: string, options: { cookie?: string; headers?: Record<string, string>; method?: string } = {}): Promise<Answer> {
  const response = await fetch(origin + path, {
    method: options.method ?? "GET",
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
  const text = await response.text();
  let json: Answer["json"] = null;
  if (text && (response.headers.get("content-type") ?? "").startsWith("application/json")) json = JSON.parse(text) as Answer["json"];
  return { status: response.status, headers: response.headers, text, json };
}

async function exportsRecorded(organizationId: string): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1 AND action = 'audit.exported'",
    [organizationId],
  );
  return rows[0]!.n;
}

/** Events written directly (fast setup), oldest first. */
async function insertEvents(
  organizationId: string,
  events: { at: Date; action?: string; actorId?: string; actorKind?: string; targetType?: string; targetId?: string; details?: unknown }[],
): Promise<string[]> {
  const ids = events.map(() => uuidv7());
  await pool().query(
    `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
     SELECT id, $2::uuid, at, action, kind::"ActorKind", actor, ttype, tid, details, 'test'
       FROM unnest($1::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::jsonb[])
         AS e(id, at, action, kind, actor, ttype, tid, details)`,
    [
      ids,
      organizationId,
      events.map((e) => e.at),
      events.map((e) => e.action ?? "organization.settings_changed"),
      events.map((e) => e.actorKind ?? "user"),
      events.map((e) => e.actorId ?? randomUUID()),
      events.map((e) => e.targetType ?? "organization"),
      events.map((e) => e.targetId ?? organizationId),
      events.map((e) => JSON.stringify(e.details ?? { name: { from: "a", to: "b" } })),
    ],
  );
  // Written past the recorder: its rollups (the name directory's users) are recounted.
  await recountRollups(pool(), [organizationId]);
  return ids;
}

type Row = Record<(typeof EXPORT_COLUMNS)[number], unknown>;

function ndjson(text: string): Row[] {
  expect(text === "" || text.endsWith("\n")).toBe(true);
  return ndjsonRows(text) as Row[];
}

function csv(text: string): Record<string, string>[] {
  expect(text.startsWith(`${EXPORT_COLUMNS.join(",")}\r\n`)).toBe(true);
  return parseCsv(text, { columns: true, record_delimiter: "\r\n", relax_quotes: false, skip_empty_lines: false }) as Record<
    string,
    string
  >[];
}

describe("gates, in the product rules' order", () => {
  it("answers each gate with its status and one translated JSON shape, records nothing and takes no rate-limit point", async () => {
    const owner = await memberOf();
    const teamOwner = await memberOf({ plan: "team" });
    const member = await memberOf({ role: "member", organizationId: owner.organizationId });
    const outsider = await memberOf();
    const elsewhere = await memberOf({ role: "admin", organizationId: owner.organizationId, active: outsider.organizationId });
    await prisma.membership.create({ data: { organizationId: outsider.organizationId, userId: elsewhere.userId, role: "owner" } });
    const twoFactorOrg = await memberOf({ requireTwoFactor: true });
    const blocked = await memberOf();
    await prisma.organization.update({ where: { id: blocked.organizationId }, data: { billingState: "past_due_blocked" } });
    const crossSite = { "Sec-Fetch-Site": "cross-site" };

    const cases: {
      what: string;
      path: string;
      cookie?: string;
      headers?: Record<string, string>;
      status: number;
      code: string;
      message: string;
    }[] = [
      {
        what: "no session",
        path: exportPath(owner.organizationId),
        status: 401,
        code: "UNAUTHORIZED",
        message: "Please sign in to continue.",
      },
      {
        what: "no session, also cross-site and a bad format",
        path: exportPath(owner.organizationId, "format=xml"),
        headers: crossSite,
        status: 401,
        code: "UNAUTHORIZED",
        message: "Please sign in to continue.",
      },
      {
        what: "unknown organization",
        path: exportPath(randomUUID()),
        cookie: owner.cookie,
        status: 404,
        code: "NOT_FOUND",
        message: "This organization does not exist.",
      },
      {
        what: "an organization id that is not one",
        path: exportPath("acme"),
        cookie: owner.cookie,
        status: 404,
        code: "NOT_FOUND",
        message: "This organization does not exist.",
      },
      {
        what: "not a member (also cross-site)",
        path: exportPath(owner.organizationId),
        cookie: outsider.cookie,
        headers: crossSite,
        status: 403,
        code: "FORBIDDEN",
        message: "You are not a member of this organization.",
      },
      {
        what: "a member whose active organization is another",
        path: exportPath(owner.organizationId),
        cookie: elsewhere.cookie,
        status: 403,
        code: "FORBIDDEN",
        message: "Switch to this organization before using it.",
      },
      {
        what: "a member without audit:view",
        path: exportPath(owner.organizationId),
        cookie: member.cookie,
        status: 403,
        code: "FORBIDDEN",
        message: "Your role does not allow this.",
      },
      {
        what: "a plan without auditExport (also cross-site)",
        path: exportPath(teamOwner.organizationId),
        cookie: teamOwner.cookie,
        headers: crossSite,
        status: 403,
        code: "FORBIDDEN",
        message: "Your organization's plan does not include audit log export.",
      },
      {
        what: "two-factor required but not enabled (also cross-site)",
        path: exportPath(twoFactorOrg.organizationId),
        cookie: twoFactorOrg.cookie,
        headers: crossSite,
        status: 403,
        code: "FORBIDDEN",
        message: "This organization requires two-factor authentication. Enable it under Security first.",
      },
      {
        what: "cross-site by Sec-Fetch-Site (also a bad format, billing blocked)",
        path: exportPath(blocked.organizationId, "format=xml"),
        cookie: blocked.cookie,
        headers: crossSite,
        status: 403,
        code: "FORBIDDEN",
        message: "Cross-site requests are not allowed.",
      },
      {
        what: "cross-site by Origin",
        path: exportPath(owner.organizationId),
        cookie: owner.cookie,
        headers: { Origin: "https://evil.example" },
        status: 403,
        code: "FORBIDDEN",
        message: "Cross-site requests are not allowed.",
      },
      {
        what: "same-site is not same-origin",
        path: exportPath(owner.organizationId),
        cookie: owner.cookie,
        headers: { "Sec-Fetch-Site": "same-site" },
        status: 403,
        code: "FORBIDDEN",
        message: "Cross-site requests are not allowed.",
      },
      {
        what: "a bad format (billing blocked too)",
        path: exportPath(blocked.organizationId, "format=xml"),
        cookie: blocked.cookie,
        status: 400,
        code: "BAD_REQUEST",
        message: "The format must be csv or json (NDJSON).",
      },
      {
        what: "billing in a blocking state",
        path: exportPath(blocked.organizationId),
        cookie: blocked.cookie,
        status: 409,
        code: "CONFLICT",
        message: "Audit log export is paused while the organization's billing needs attention. Settle the billing first.",
      },
    ];
    for (const c of cases) {
      const answer = await get(c.path, { cookie: c.cookie, headers: c.headers });
      expect({ what: c.what, status: answer.status, body: answer.json }).toEqual({
        what: c.what,
        status: c.status,
        body: { code: c.code, message: c.message },
      });
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    for (const m of [owner, teamOwner, outsider, twoFactorOrg, blocked]) expect(await exportsRecorded(m.organizationId)).toBe(0);
    const { rows } = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM rate_limits");
    expect(rows[0]!.n).toBe(0);
    // The same gates speak German.
    const german = await get(exportPath(teamOwner.organizationId), { cookie: teamOwner.cookie, headers: { "Accept-Language": "de" } });
    expect(german.json).toEqual({ code: "FORBIDDEN", message: "Der Tarif Ihrer Organisation enthält keinen Export des Audit-Logs." });
    const blockedDe = await get(exportPath(blocked.organizationId, "lng=de"), { cookie: blocked.cookie });
    expect(blockedDe.json?.message).toMatch(/^Der Export des Audit-Logs ist ausgesetzt/);
  });

  it("lets through the same-origin and direct requests that browsers send for a link or a typed address", async () => {
    const owner = await memberOf({ twoFactor: true, requireTwoFactor: true });
    for (const headers of [{}, { "Sec-Fetch-Site": "same-origin" }, { "Sec-Fetch-Site": "none" }, { Origin: origin }] as Record<
      string,
      string
    >[]) {
      const answer = await get(exportPath(owner.organizationId), { cookie: owner.cookie, headers });
      expect(answer.status).toBe(200);
    }
  });

  it("answers the sixth export of a user and the eleventh of an organization in a minute 429, with Retry-After and RateLimit headers", async () => {
    const owner = await memberOf();
    const admins = await Promise.all(Array.from({ length: 3 }, () => memberOf({ role: "admin", organizationId: owner.organizationId })));
    for (let i = 0; i < 5; i++) {
      const answer = await get(exportPath(owner.organizationId), { cookie: owner.cookie });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit-policy")).toBe(`"audit.export.user";q=5;w=60, "audit.export.organization";q=10;w=60`);
      expect(answer.headers.get("ratelimit")).toMatch(
        new RegExp(`^"audit\\.export\\.user";r=${4 - i};t=\\d+, "audit\\.export\\.organization";r=${9 - i};t=\\d+$`),
      );
    }
    const sixth = await get(exportPath(owner.organizationId), { cookie: owner.cookie, headers: { "Accept-Language": "de" } });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(sixth.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(sixth.headers.get("ratelimit-policy")).toBe(`"audit.export.user";q=5;w=60`);
    expect(sixth.headers.get("ratelimit")).toMatch(/^"audit\.export\.user";r=0;t=\d+$/);
    expect(sixth.json).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^Zu viele Versuche\. Versuchen Sie es in \d+ (Sekunden|Minute) erneut\.$/),
    });
    // The organization's other five: its eleventh is refused, whoever asks.
    for (const admin of [admins[0]!, admins[0]!, admins[0]!, admins[1]!, admins[1]!]) {
      expect((await get(exportPath(owner.organizationId), { cookie: admin.cookie })).status).toBe(200);
    }
    const eleventh = await get(exportPath(owner.organizationId), { cookie: admins[2]!.cookie });
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get("ratelimit")).toMatch(/^"audit\.export\.organization";r=0;t=\d+$/);
    expect(await exportsRecorded(owner.organizationId)).toBe(10);
  });

  it("counts exactly under 50 concurrent requests: 5 for one user, 10 for an organization, however they race", async () => {
    const owner = await memberOf();
    const admins = await Promise.all(Array.from({ length: 9 }, () => memberOf({ role: "admin", organizationId: owner.organizationId })));
    const race = async (cookies: string[]) => {
      await pool().query("DELETE FROM rate_limits");
      const before = await exportsRecorded(owner.organizationId);
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => get(exportPath(owner.organizationId, "format=json"), { cookie: cookies[i % cookies.length] })),
      );
      const statuses = answers.map((a) => a.status);
      const perUser = cookies.map((_, u) => statuses.filter((s, i) => i % cookies.length === u && s === 200).length);
      return {
        ok: statuses.filter((s) => s === 200).length,
        limited: statuses.filter((s) => s === 429).length,
        perUser,
        recorded: (await exportsRecorded(owner.organizationId)) - before,
      };
    };
    const one = await race([owner.cookie]);
    expect(one).toMatchObject({ ok: 5, limited: 45, recorded: 5 });
    const ten = await race([owner.cookie, ...admins.map((a) => a.cookie)]);
    expect(ten).toMatchObject({ ok: 10, limited: 40, recorded: 10 });
    const two = await race([owner.cookie, admins[0]!.cookie]);
    expect(two).toMatchObject({ ok: 10, limited: 40, recorded: 10, perUser: [5, 5] });
  });
});

describe("bad input", () => {
  it("is a clear, translated 4xx in one JSON shape, never recorded, and the server keeps serving", async () => {
    const owner = await memberOf();
    const long = `action=${"a".repeat(10 * 1024)}`;
    const cases: { query?: string; method?: string; headers?: Record<string, string>; status: number; message: RegExp }[] = [
      { query: "format=xml", status: 400, message: /^Das Format muss csv oder json/ },
      { query: "format=", status: 200, message: /./ },
      { query: "action=Bad!", status: 400, message: /^Der Aktionsfilter|Aktion/ },
      { query: "actorId=a%20b", status: 400, message: /./ },
      { query: "from=2026-13-01", status: 400, message: /./ },
      { query: "from=2026-02-02&to=2026-02-01", status: 400, message: /./ },
      { query: "from=1999-12-31", status: 400, message: /./ },
      // Refused by the request edge already (its limit on request targets), in the same shape.
      { query: long, status: 400, message: /^Die (Export-)?Adresse/ },
      { query: `x=${"a".repeat(3000)}`, status: 400, message: /^Die Export-Adresse ist zu lang/ },
      { query: `x=${"%ZZ".repeat(100)}`, status: 200, message: /./ },
      { query: "format=csv&format=json", status: 400, message: /^Der Parameter format kommt mehrfach vor/ },
      { query: "actorId=a&actorId=b", status: 400, message: /^Der Parameter actorId kommt mehrfach vor/ },
      { method: "HEAD", status: 405, message: /./ },
      { method: "POST", headers: { "Sec-Fetch-Site": "same-origin" }, status: 405, message: /^Diese Methode ist hier nicht erlaubt/ },
      { method: "POST", headers: { "Sec-Fetch-Site": "cross-site" }, status: 403, message: /^Websiteübergreifende Anfragen/ },
      { method: "PUT", status: 405, message: /^Diese Methode ist hier nicht erlaubt/ },
      { method: "DELETE", status: 405, message: /^Diese Methode ist hier nicht erlaubt/ },
    ];
    let successes = 0;
    for (const c of cases) {
      const answer = await get(exportPath(owner.organizationId, c.query), {
        cookie: owner.cookie,
        method: c.method,
        headers: { "Accept-Language": "de", ...c.headers },
      });
      expect({ query: c.query?.slice(0, 40), method: c.method, status: answer.status }).toEqual({
        query: c.query?.slice(0, 40),
        method: c.method,
        status: c.status,
      });
      if (c.status === 200) {
        successes++;
        continue;
      }
      if (c.method === "HEAD") {
        expect(answer.text).toBe("");
        expect(answer.headers.get("allow")).toBe("GET");
        continue;
      }
      expect(Object.keys(answer.json ?? {})).toEqual(["code", "message"]);
      expect(answer.json?.message).toMatch(c.message);
    }
    expect(await exportsRecorded(owner.organizationId)).toBe(successes);
    expect((await get("/ping")).status).toBe(200);
  });
});

describe("the file", () => {
  it("escapes every cell that starts like a formula and reads back exactly through a CSV parser", async () => {
    const owner = await memberOf();
    const formulaStart = fc.constantFrom("=", "+", "-", "@", "\t", "\r");
    const name = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 30 }),
      fc.tuple(formulaStart, fc.string({ unit: "grapheme", maxLength: 20 })).map(([a, b]) => a + b),
      fc.constantFrom('=HYPERLINK("http://evil","x")', "+1+1", "-2", "@SUM(A1)", 'a "quoted", name\r\nwith lines', "", " =not first"),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(name, { minLength: 1, maxLength: 12 }), async (names) => {
        await pool().query("DELETE FROM rate_limits");
        await pool()
          .query("DELETE FROM audit_events WHERE organization_id = $1", [owner.organizationId])
          .catch(() => {});
        // Names written directly: the generated ones break the input rules on purpose (a database
        // written by other means, or rules that change, must still give a safe file).
        const users = await Promise.all(names.map(() => createUser()));
        await Promise.all(users.map((u, i) => pool().query("UPDATE users SET name = $2 WHERE id = $1", [u.id, names[i]])));
        const start = Date.now() - 60_000;
        const ids = await insertEvents(
          owner.organizationId,
          users.map((u, i) => ({
            at: new Date(start + i),
            actorId: u.id,
            action: "member.role_changed",
            targetType: "user",
            targetId: u.id,
            details: { note: names[i] },
          })),
        );
        const answer = await get(exportPath(owner.organizationId, "format=csv"), { cookie: owner.cookie });
        expect(answer.status).toBe(200);
        const rows = csv(answer.text).filter((r) => ids.includes(r.id!));
        expect(rows.map((r) => r.id)).toEqual([...ids].reverse());
        const safe = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
        rows.forEach((row, i) => {
          const original = names[names.length - 1 - i]!;
          expect(row.actorName).toBe(safe(original));
          expect(row.targetName).toBe(safe(original));
          expect(JSON.parse(row.details!)).toEqual({ note: original });
          for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
        });
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it("writes NDJSON: one object per line, the columns in order, details as an object, deleted names null", async () => {
    const owner = await memberOf();
    const gone = await createUser({ name: "Gone Soon" });
    await insertEvents(owner.organizationId, [
      { at: new Date(Date.now() - 2000), actorId: owner.userId, details: { name: { from: "Old", to: "New ⚡" } } },
      {
        at: new Date(Date.now() - 1000),
        actorId: gone.id,
        action: "member.removed",
        targetType: "user",
        targetId: gone.id,
        details: { role: "member" },
      },
      {
        at: new Date(Date.now() - 500),
        actorKind: "system",
        actorId: "system",
        action: "member.role_changed",
        targetType: "user",
        targetId: owner.userId,
      },
    ]);
    await prisma.user.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    const answer = await get(exportPath(owner.organizationId, "format=json"), { cookie: owner.cookie });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/x-ndjson");
    expect(answer.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="audit-log-${owner.slug}-until-\\d{4}-\\d{2}-\\d{2}\\.ndjson"`),
    );
    const rows = ndjson(answer.text);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row)).toEqual([...EXPORT_COLUMNS]);
    expect(rows[0]).toMatchObject({ actorKind: "system", actorId: "system", actorName: null, targetName: "Test User", targetType: "user" });
    expect(rows[1]).toMatchObject({
      action: "member.removed",
      actorName: null,
      targetName: null,
      targetId: gone.id,
      details: { role: "member" },
    });
    expect(rows[2]).toMatchObject({
      actorName: "Test User",
      targetName: expect.stringMatching(/^Org /),
      details: { name: { from: "Old", to: "New ⚡" } },
    });
    expect(String(rows[2]!.createdAt)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("resolves names when exported: after a rename and a deletion the file shows today's names, as the view does", async () => {
    const owner = await memberOf();
    const admin = await memberOf({ role: "admin", organizationId: owner.organizationId });
    await prisma.user.update({ where: { id: admin.userId }, data: { name: "Ada Admin" } });
    const keyId = randomUUID();
    await pool().query(
      `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id)
       VALUES ($1, $2, 'deploy key', ARRAY['audit:view'], decode(md5(random()::text), 'hex'), 'sk_test', $3)`,
      [keyId, owner.organizationId, admin.userId],
    );
    await insertEvents(owner.organizationId, [
      { at: new Date(Date.now() - 3000), actorId: admin.userId, action: "api_key.issued", targetType: "api_key", targetId: keyId },
      { at: new Date(Date.now() - 2000), actorId: owner.userId, action: "member.role_changed", targetType: "user", targetId: admin.userId },
    ]);
    const names = async () =>
      ndjson((await get(exportPath(owner.organizationId, "format=json"), { cookie: owner.cookie })).text)
        .filter((r) => r.action !== "audit.exported")
        .map((r) => [r.actorName, r.targetName]);
    expect(await names()).toEqual([
      ["Test User", "Ada Admin"],
      ["Ada Admin", "deploy key"],
    ]);
    await pool().query("UPDATE api_keys SET name = 'renamed key' WHERE organization_id = $1 AND id = $2", [owner.organizationId, keyId]);
    await prisma.user.update({ where: { id: admin.userId }, data: { name: "Ada Renamed" } });
    expect(await names()).toEqual([
      ["Test User", "Ada Renamed"],
      ["Ada Renamed", "renamed key"],
    ]);
    await prisma.user.update({ where: { id: admin.userId }, data: { deletedAt: new Date() } });
    const csvRows = csv((await get(exportPath(owner.organizationId), { cookie: owner.cookie })).text).filter(
      (r) => r.action !== "audit.exported",
    );
    expect(csvRows.map((r) => [r.actorName, r.actorId, r.targetName, r.targetId])).toEqual([
      ["Test User", owner.userId, "", admin.userId],
      ["", admin.userId, "renamed key", keyId],
    ]);
    // The view marks the same ones deleted: its names are null exactly where the file's are.
    const auth = (await validateSessionToken(owner.cookie.split("=")[1]!))!;
    const view = await listAuditEvents(
      await authorizeOrganization(auth, owner.organizationId, "audit:view"),
      parseAuditSearchParams(new URLSearchParams()),
    );
    const viewNames = view.events
      .filter((e) => e.action !== "audit.exported")
      .map((e) => [e.actor.name ?? "", e.actorId, e.target.name ?? "", e.targetId]);
    expect(viewNames).toEqual(csvRows.map((r) => [r.actorName, r.actorId, r.targetName, r.targetId]));
  });

  it("names every kind of actor and target alike from its directory and with the COPY's lookups, as the view does", async () => {
    const owner = await memberOf();
    const admin = await memberOf({ role: "admin", organizationId: owner.organizationId });
    await prisma.user.update({ where: { id: admin.userId }, data: { name: 'Zoë "Q", =SUM(A1)' } });
    const leaver = await createUser({ name: "Leaves Soon" });
    const exMember = await createUser({ name: "Ex Member ⚡" });
    const stranger = await memberOf();
    const key = (organizationId: string, name: string) =>
      pool()
        .query<{ id: string }>(
          `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix)
           VALUES (gen_random_uuid(), $1, $2, ARRAY['audit:view'], decode(md5(random()::text), 'hex'), 'sk_test') RETURNING id::text`,
          [organizationId, name],
        )
        .then((r) => r.rows[0]!.id);
    const ownKey = await key(owner.organizationId, "deploy ключ");
    const foreignKey = await key(stranger.organizationId, "not theirs");
    const invite = (organizationId: string, email: string) =>
      pool()
        .query<{ id: string }>(
          `INSERT INTO invitations (id, organization_id, email, role, expires_at)
           VALUES (gen_random_uuid(), $1, $2, 'member', now() + interval '1 day') RETURNING id::text`,
          [organizationId, email],
        )
        .then((r) => r.rows[0]!.id);
    const invitation = await invite(owner.organizationId, "invitee@example.test");
    const foreignInvitation = await invite(stranger.organizationId, "elsewhere@example.test");
    const { name: organizationName } = await prisma.organization.findUniqueOrThrow({ where: { id: owner.organizationId } });
    // Other spellings PostgreSQL's uuid input reads as the same id: no hyphens; braces with a hyphen
    // after every four digits. A lone brace is no uuid.
    const compact = ownKey.replaceAll("-", "");
    const braced = `{${compact.toUpperCase().replace(/(.{4})(?!$)/g, "$1-")}}`;
    const at = (n: number) => new Date(Date.now() - 60_000 + n * 100);
    await insertEvents(owner.organizationId, [
      { at: at(0), actorId: admin.userId, targetType: "user", targetId: exMember.id, action: "member.removed" },
      { at: at(1), actorId: leaver.id, targetType: "api_key", targetId: ownKey, action: "api_key.rotated" },
      {
        at: at(2),
        actorKind: "api_key",
        actorId: ownKey,
        targetType: "api_key",
        targetId: ownKey.toUpperCase(),
        action: "api_key.revoked",
      },
      { at: at(3), actorKind: "api_key", actorId: foreignKey, targetType: "api_key", targetId: foreignKey, action: "api_key.revoked" },
      { at: at(4), actorId: owner.userId, targetType: "invitation", targetId: invitation, action: "invitation.sent" },
      { at: at(5), actorId: owner.userId, targetType: "invitation", targetId: randomUUID(), action: "invitation.canceled" },
      { at: at(6), actorId: owner.userId, targetType: "organization", targetId: stranger.organizationId },
      { at: at(7), actorKind: "system", actorId: "system", targetType: "user", targetId: admin.userId.toUpperCase() },
      { at: at(8), actorKind: "job", actorId: randomUUID(), targetType: "user", targetId: "not-a-uuid" },
      { at: at(9), actorId: "not-a-uuid", targetType: "webhook", targetId: randomUUID(), action: "webhook.created" },
      { at: at(10), actorId: admin.userId, targetType: "user", targetId: leaver.id, action: "member.role_changed" },
      { at: at(11), actorId: owner.userId, targetType: "organization", targetId: owner.organizationId },
      { at: at(12), actorId: owner.userId, targetType: "invitation", targetId: foreignInvitation, action: "invitation.sent" },
      { at: at(13), actorId: owner.userId, targetType: "invitation", targetId: invitation.toUpperCase(), action: "invitation.canceled" },
      { at: at(14), actorId: owner.userId, targetType: "api_key", targetId: compact, action: "api_key.rotated" },
      { at: at(15), actorKind: "api_key", actorId: braced, targetType: "api_key", targetId: braced, action: "api_key.rotated" },
      { at: at(16), actorId: owner.userId, targetType: "api_key", targetId: `{${ownKey}`, action: "api_key.rotated" },
    ]);
    await prisma.user.update({ where: { id: leaver.id }, data: { deletedAt: new Date() } });

    // Every user the log names is listed for the directory, as the events spell them; keys are not.
    const listed = await pool().query<{ user_id: string }>("SELECT user_id FROM audit_event_users WHERE organization_id = $1", [
      owner.organizationId,
    ]);
    expect(listed.rows.map((r) => r.user_id).sort()).toEqual(
      [admin.userId, leaver.id, exMember.id, owner.userId, admin.userId.toUpperCase(), "not-a-uuid"].sort(),
    );

    const auth = (await validateSessionToken(owner.cookie.split("=")[1]!))!;
    const logged = (rows: Record<string, unknown>[]) => rows.filter((r) => r.action !== "audit.exported");
    const downloaded = logged(ndjson((await get(exportPath(owner.organizationId, "format=json"), { cookie: owner.cookie })).text));
    const fromDirectory = await exportedRows(auth, owner.organizationId);
    const fromLookups = await exportedRows(auth, owner.organizationId, {}, { nameDirectoryLimit: 0 });
    expect([fromDirectory.namesFrom, fromLookups.namesFrom]).toEqual(["directory", "lookups"]);
    expect(downloaded).toHaveLength(17);
    expect(logged(fromDirectory.rows)).toEqual(downloaded);
    expect(logged(fromLookups.rows)).toEqual(downloaded);
    expect(downloaded.map((r) => [r.actorName, r.targetName]).reverse()).toEqual([
      ['Zoë "Q", =SUM(A1)', "Ex Member ⚡"],
      [null, "deploy ключ"],
      ["deploy ключ", "deploy ключ"],
      [null, null],
      ["Test User", "invitee@example.test"],
      ["Test User", null],
      ["Test User", null],
      [null, 'Zoë "Q", =SUM(A1)'],
      [null, null],
      [null, null],
      ['Zoë "Q", =SUM(A1)', null],
      ["Test User", organizationName],
      ["Test User", null],
      ["Test User", "invitee@example.test"],
      ["Test User", "deploy ключ"],
      ["deploy ключ", "deploy ключ"],
      ["Test User", null],
    ]);
    // The CSV carries the same names, formula-safe.
    const csvRows = csv((await get(exportPath(owner.organizationId, "format=csv"), { cookie: owner.cookie })).text).filter(
      (r) => r.action !== "audit.exported",
    );
    expect(csvRows.at(-1)).toMatchObject({ actorName: `Zoë "Q", =SUM(A1)`, targetName: "Ex Member ⚡" });
    expect(csvRows.find((r) => r.actorKind === "system")).toMatchObject({ targetName: `Zoë "Q", =SUM(A1)` });
    // And the view names them the same.
    const view = await listAuditEvents(
      await authorizeOrganization(auth, owner.organizationId, "audit:view"),
      parseAuditSearchParams(new URLSearchParams()),
    );
    expect(logged(view.events.map((e) => ({ action: e.action, actorName: e.actor.name, targetName: e.target.name })))).toEqual(
      downloaded.map((r) => ({ action: r.action, actorName: r.actorName, targetName: r.targetName })),
    );
  });

  it("selects exactly the rows the page shows for the same filters, in the same order, with the same names", async () => {
    const owner = await memberOf();
    const others = await Promise.all(Array.from({ length: 3 }, () => memberOf({ role: "admin", organizationId: owner.organizationId })));
    const actors = [owner.userId, ...others.map((o) => o.userId)];
    const actions = ["api_key.issued", "member.role_changed", "organization.settings_changed", "invitation.sent"];
    const targets = [randomUUID(), randomUUID(), owner.organizationId];
    const start = Date.parse("2026-03-01T00:00:00Z");
    await insertEvents(
      owner.organizationId,
      Array.from({ length: 260 }, (_, i) => ({
        at: new Date(start + Math.floor(i / 3) * 3_600_000 * 7),
        action: actions[i % actions.length],
        actorId: actors[(i * 7) % actors.length],
        targetType: i % 3 === 2 ? "organization" : "user",
        targetId: targets[i % 3],
      })),
    );
    // Another organization's events never leak in.
    const stranger = await memberOf();
    await insertEvents(stranger.organizationId, [{ at: new Date(start + 3_600_000) }]);
    const auth = (await validateSessionToken(owner.cookie.split("=")[1]!))!;
    const reader = await authorizeOrganization(auth, owner.organizationId, "audit:view");
    const filterSets: AuditFilters[] = [
      {},
      { action: "member.role_changed" },
      { actorId: others[1]!.userId },
      { targetId: targets[0] },
      { from: "2026-03-10", to: "2026-03-20" },
      { from: "2026-03-15" },
      { to: "2026-03-05" },
      { action: "api_key.issued", actorId: owner.userId, from: "2026-03-02", to: "2026-04-30" },
      { action: "audit.exported" },
      // The edges of the accepted dates: the end of 9999-12-31 is in the year 10000.
      { from: "2000-01-01", to: "9999-12-31" },
      { to: "9999-12-31" },
    ];
    for (const filters of filterSets) {
      await pool().query("DELETE FROM rate_limits");
      const pageRows: unknown[] = [];
      let cursor: string | null = null;
      do {
        const params = filtersToSearchParams(filters);
        if (cursor) params.set("cursor", cursor);
        const page = await listAuditEvents(reader, parseAuditSearchParams(params));
        pageRows.push(...page.events.map((e) => [e.id, e.createdAt, e.action, e.actorId, e.actor.name, e.targetId, e.target.name]));
        cursor = page.nextCursor;
      } while (cursor);
      const query = filtersToSearchParams(filters);
      query.set("format", "json");
      const answer = await get(exportPath(owner.organizationId, query.toString()), { cookie: owner.cookie });
      expect(answer.status).toBe(200);
      const fileRows = ndjson(answer.text).map((r) => [r.id, r.createdAt, r.action, r.actorId, r.actorName, r.targetId, r.targetName]);
      expect({ filters, rows: fileRows }).toEqual({ filters, rows: pageRows });
    }
  }, 60_000);
});

describe("recording", () => {
  it("commits exactly one audit.exported per export, with its format and filters, before the first byte", async () => {
    const owner = await memberOf();
    await insertEvents(
      owner.organizationId,
      Array.from({ length: 5000 }, (_, i) => ({ at: new Date(Date.now() - 100_000 + i) })),
    );
    const response = await fetch(
      origin + exportPath(owner.organizationId, "format=json&action=organization.settings_changed&from=2026-01-01"),
      {
        headers: { cookie: owner.cookie },
      },
    );
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The download has only begun, and the event is there already.
    const { rows } = await pool().query<{ actor_id: string; target_id: string; details: unknown }>(
      "SELECT actor_id, target_id, details FROM audit_events WHERE organization_id = $1 AND action = 'audit.exported'",
      [owner.organizationId],
    );
    expect(rows).toEqual([
      {
        actor_id: owner.userId,
        target_id: owner.organizationId,
        details: { format: "json", filters: { action: "organization.settings_changed", from: "2026-01-01" } },
      },
    ]);
    while (!(await reader.read()).done);
    expect(await exportsRecorded(owner.organizationId)).toBe(1);
    await get(exportPath(owner.organizationId, "format=csv"), { cookie: owner.cookie });
    expect(await exportsRecorded(owner.organizationId)).toBe(2);
  });

  it("exports one snapshot: events committed during a slow download never appear, none twice or missing", async () => {
    const owner = await memberOf();
    const before = await insertEvents(
      owner.organizationId,
      Array.from({ length: 20_000 }, (_, i) => ({ at: new Date(Date.now() - 10_000_000 + i * 100) })),
    );
    const response = await fetch(origin + exportPath(owner.organizationId, "format=json"), { headers: { cookie: owner.cookie } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value!);
    // While the client waits, events arrive at both ends of the order: newer than all, and older
    // than all (those would come last in the file if the export read the table as it is now).
    await insertEvents(owner.organizationId, [
      { at: new Date(Date.now()), action: "member.removed" },
      { at: new Date(Date.now() - 20_000_000), action: "member.removed" },
    ]);
    await get(exportPath(owner.organizationId, "format=csv"), { cookie: owner.cookie });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const rows = ndjson(Buffer.concat(chunks).toString("utf8"));
    expect(rows.map((r) => r.id)).toEqual([...before].reverse());
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it("stops the query at once when the client goes away", async () => {
    const owner = await memberOf();
    await insertEvents(
      owner.organizationId,
      Array.from({ length: 60_000 }, (_, i) => ({ at: new Date(Date.now() - 10_000_000 + i) })),
    );
    // As the owner: other sessions' statements are hidden from the app's role in pg_stat_activity.
    const copies = async () =>
      (
        await queryOnce<{ n: number }>(
          process.env.DATABASE_URL!,
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY (%' AND pid <> pg_backend_pid()",
        )
      ).rows[0]!.n;
    const controller = new AbortController();
    const response = await fetch(origin + exportPath(owner.organizationId, "format=csv"), {
      headers: { cookie: owner.cookie },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    // Not reading on: backpressure holds the query mid-file.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await copies()).toBe(1);
    controller.abort();
    const deadline = Date.now() + 1000;
    while ((await copies()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await copies()).toBe(0);
    // The server is fine, and the next export works.
    expect((await get(exportPath(owner.organizationId, "format=json&action=member.removed"), { cookie: owner.cookie })).status).toBe(200);
  });
});

describe("the plan catalog switch", () => {
  it("extends export to another plan by its flag alone", async () => {
    const team = await memberOf({ plan: "team" });
    const auth = (await validateSessionToken(team.cookie.split("=")[1]!))!;
    await expect(authorizeAuditExport(auth, team.organizationId)).rejects.toMatchObject({
      code: "FORBIDDEN",
      messageKey: "auditExport.planLacksExport",
    });
    const flags = PLANS.team.flags as { auditExport: boolean };
    flags.auditExport = true;
    try {
      const access = await authorizeAuditExport(auth, team.organizationId);
      expect(access.organization.id).toBe(team.organizationId);
      expect(auditExportBlocker(access)).toBeNull();
    } finally {
      flags.auditExport = false;
    }
  });
});

describe("the query plan", () => {
  it("reads through the filter's index in order, with no sort, for every filter", async () => {
    const owner = await memberOf();
    await insertEvents(
      owner.organizationId,
      Array.from({ length: 3000 }, (_, i) => ({ at: new Date(Date.now() - 1_000_000 + i) })),
    );
    // As the owner: ANALYZE by anyone else (the app's role) is skipped with a warning.
    await queryOnce(process.env.DATABASE_URL!, "ANALYZE audit_events");
    const client = await pool().connect();
    try {
      await client.query(`BEGIN; ${EXPORT_SETTINGS}`);
      for (const filters of [
        {},
        { action: "a.b" },
        { actorId: "x" },
        { targetId: "y" },
        { from: "2026-01-01", to: "2026-02-01" },
      ] as AuditFilters[]) {
        const query = parseAuditSearchParams(filtersToSearchParams(filters));
        for (const namesFrom of ["directory", "lookups"] as const) {
          const sql = exportSelectSql(owner.organizationId, { format: "csv", query }, namesFrom);
          const plan = (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${sql.text}`, sql.values as unknown[])).rows
            .map((r) => r["QUERY PLAN"])
            .join("\n");
          expect(plan).toMatch(/Index (Only )?Scan/);
          expect(plan).not.toMatch(/Sort|Seq Scan on audit_events/);
        }
      }
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    void Prisma;
  });
});

describe("the page", () => {
  it("offers download links with its filters to those who may export, and says why to the others, in both languages", async () => {
    const page = async (member: Member, query = "") =>
      (await get(`/dashboard/organization-settings/audit-log${query}`, { cookie: member.cookie })).text;
    const owner = await memberOf();
    const html = await page(owner, "?action=member.removed&from=2026-01-01");
    const decoded = html.replace(/&amp;/g, "&");
    expect(decoded).toContain(
      `href="/api/organizations/${owner.organizationId}/audit-log/export?action=member.removed&format=csv&from=2026-01-01"`,
    );
    expect(decoded).toContain(
      `href="/api/organizations/${owner.organizationId}/audit-log/export?action=member.removed&format=json&from=2026-01-01"`,
    );
    expect(html).toContain("Download NDJSON");

    const blocked = await memberOf();
    await prisma.organization.update({ where: { id: blocked.organizationId }, data: { billingState: "canceled" } });
    expect(await page(blocked)).toContain("Export is paused while the organization&#x27;s billing needs attention.");
    expect(await page(blocked, "?lng=de")).toContain("Der Export ist ausgesetzt, solange die Abrechnung der Organisation offen ist.");
    expect(await page(blocked)).not.toContain("Download CSV");

    const team = await memberOf({ plan: "free" });
    expect(await page(team)).toContain("Exporting the audit log is not part of the Free plan. Plans that include it: Enterprise.");
  });
});

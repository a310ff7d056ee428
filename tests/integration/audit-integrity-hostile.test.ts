// Hostile input on issue 34's surface, through the built app behind the real request edge: the
// published keys, the digests download, auditLog.verify and the integrity page's form. Every
// answer is a clear 4xx (JSON or translated) or the page, never a 5xx, and nothing is recorded or
// sealed by a refused request.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { pool, prisma } from "~/db.server";
import { createOrganizationWith, createUser } from "../factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { seal } from "../audit-integrity";
import { recordChanges } from "../audit-streams";

let server: InProcessServer;
const owner = { organizationId: "", cookie: "", userId: "" };
const stranger = { organizationId: "", cookie: "" };

async function memberCookie(role: "owner" | "member", organizationId?: string) {
  const user = await createUser();
  if (organizationId) await prisma.membership.create({ data: { organizationId, userId: user.id, role } });
  else organizationId = (await createOrganizationWith([{ userId: user.id, role }], { planId: "enterprise" })).id;
  const { token } = await createSession(user.id, { twoFactorVerified: false, activeOrganizationId: organizationId });
  return { userId: user.id, organizationId, cookie: `${sessionCookieName()}=${token}` };
}

beforeAll(async () => {
  server = await startInProcessServer();
  Object.assign(owner, await memberCookie("owner"));
  Object.assign(stranger, await memberCookie("owner"));
  await recordChanges(owner.organizationId, owner.userId, 3);
  await seal(owner.organizationId);
});

afterAll(async () => {
  await server?.close();
});

beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

async function logState() {
  const { rows } = await pool().query<{ events: string; digests: string }>(
    `SELECT (SELECT count(*) FROM audit_events WHERE organization_id = $1)::text AS events,
            (SELECT count(*) FROM audit_digests WHERE organization_id = $1)::text AS digests`,
    [owner.organizationId],
  );
  return rows[0];
}

async function send(path: string, init: RequestInit = {}) {
  const response = await fetch(server.origin + path, init);
  const text = await response.text();
  expect(response.status, `${init.method ?? "GET"} ${path.slice(0, 200)}: ${text.slice(0, 300)}`).toBeLessThan(500);
  return { status: response.status, headers: response.headers, text };
}

const JUNK_DAYS = [
  "2026-02-30",
  "9999-12-31",
  "0000-01-01",
  "+275760-09-13",
  "2026-1-1",
  "２０２６-01-01",
  "2026-01-01\u0000",
  "%00",
  "' OR 1=1 --",
  "x".repeat(5000),
  "2026-01-01T00:00:00Z",
  "-1",
  "1e400",
];

describe("the digests download under hostile queries", () => {
  const base = () => `/api/organizations/${owner.organizationId}/audit-log/digests`;

  it("answers junk, repeated and impossible from/to/action with a 4xx or the manifest, never 5xx", async () => {
    const before = await logState();
    const queries: string[] = [];
    for (const day of JUNK_DAYS) {
      const value = encodeURIComponent(day);
      queries.push(`from=${value}`, `to=${value}`, `from=${value}&to=${value}`);
    }
    queries.push(
      "from=2026-03-02&to=2026-03-01",
      "from=2026-01-01&from=2026-01-02",
      "to=2026-01-01&to=junk",
      "action=%00",
      "action=member.role_changed&action=audit.exported",
      `action=${"a".repeat(20000)}`,
      "actorId=%E2%80%AE&targetId=%F0%9F%92%A9",
      "from=%ZZ",
      "%%%",
      `${"a=1&".repeat(3000)}`,
      "format=csv",
      "from[]=2026-01-01",
      "cursor=%FF%FE",
    );
    for (const query of queries) {
      const answer = await send(`${base()}?${query}`, { headers: { cookie: owner.cookie } });
      if (answer.status >= 400 && answer.status !== 431 && answer.status !== 414)
        expect(`${answer.status} ${answer.headers.get("content-type")} ${answer.text.slice(0, 200)}`, query).toMatch(/json/);
      await pool().query("DELETE FROM rate_limits");
    }
    // Each good download records an audit.exported? No: the digests download records nothing.
    expect(await logState()).toEqual(before);
  });

  it("refuses bad organization ids, another organization, unauthenticated callers and other methods", async () => {
    for (const id of [
      "not-a-uuid",
      "%00",
      "00000000-0000-0000-0000-000000000000",
      "x".repeat(3000),
      "..%2F..%2Fetc",
      stranger.organizationId,
    ]) {
      const answer = await send(`/api/organizations/${id}/audit-log/digests`, { headers: { cookie: owner.cookie } });
      expect([400, 403, 404], id).toContain(answer.status);
    }
    expect((await send(base())).status).toBe(401);
    for (const method of ["HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const answer = await send(base(), {
        method,
        headers: { cookie: owner.cookie, ...(method === "HEAD" || method === "OPTIONS" ? {} : { "content-type": "application/json" }) },
        ...(method === "HEAD" || method === "OPTIONS" ? {} : { body: "{}" }),
      });
      expect(answer.status, method).toBeGreaterThanOrEqual(200);
    }
  });
});

describe("the published keys under hostile requests", () => {
  const PATH = "/.well-known/audit-log-keys.json";

  it("ignores query strings and junk validators, and answers huge headers below 500", async () => {
    for (const query of ["", "?x=1", "?%00", `?${"k=v&".repeat(2000)}`, "?keys[]=1"]) {
      expect((await send(PATH + query)).status).toBe(200);
    }
    for (const tag of ['"', "*", "W/", 'W/"x"', "\u0000", ",,,,", "x".repeat(6000), '"a", W/"b", *']) {
      const answer = await send(PATH, { headers: { "if-none-match": tag.split("\u0000").join("") } });
      expect([200, 304], tag).toContain(answer.status);
    }
    const huge = await send(PATH, { headers: { "x-junk": "y".repeat(15000) } });
    expect([200, 431]).toContain(huge.status);
  });
});

describe("auditLog.verify at /rpc under hostile bodies", () => {
  const rpc = (body: string, headers: Record<string, string> = {}) =>
    send("/rpc/auditLog/verify", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: owner.cookie,
        origin: server.origin,
        "sec-fetch-site": "same-origin",
        ...headers,
      },
      body,
    });

  it("answers bad JSON, wrong types, extra fields, junk days and huge bodies with a 4xx", async () => {
    const bodies = [
      "",
      "{",
      "null",
      "[]",
      '"x"',
      JSON.stringify({ json: null }),
      JSON.stringify({ json: [] }),
      JSON.stringify({ json: { organizationId: 5 } }),
      JSON.stringify({ json: { organizationId: owner.organizationId, from: 20260101 } }),
      JSON.stringify({ json: { organizationId: owner.organizationId, from: null } }),
      JSON.stringify({ json: { organizationId: owner.organizationId, to: ["2026-01-01"] } }),
      JSON.stringify({ json: { organizationId: owner.organizationId, extra: true } }),
      JSON.stringify({ json: { organizationId: owner.organizationId }, meta: [[1, ["json"]]] }),
      `{"json":{"organizationId":"${owner.organizationId}","__proto__":{"from":"x"}}}`,
      JSON.stringify({ json: { organizationId: "x".repeat(100_000) } }),
      JSON.stringify({ json: { organizationId: owner.organizationId, from: "x".repeat(2_000_000) } }),
    ];
    for (const body of bodies) {
      const answer = await rpc(body);
      expect(answer.status, body.slice(0, 200)).toBeGreaterThanOrEqual(400);
      await pool().query("DELETE FROM rate_limits");
    }
    // Real but far days are a verdict (nothing in range); impossible ones a translated 400.
    for (const day of JUNK_DAYS) {
      for (const field of ["from", "to"]) {
        const answer = await rpc(JSON.stringify({ json: { organizationId: owner.organizationId, [field]: day } }), {
          "accept-language": "de",
        });
        if (answer.status !== 200) expect(answer.status, day).toBe(400);
        await pool().query("DELETE FROM rate_limits");
      }
    }
  });

  it("verifies once per caller at a time: concurrent calls get the verdict or 429 with Retry-After", async () => {
    const body = JSON.stringify({ json: { organizationId: owner.organizationId } });
    const answers = await Promise.all(Array.from({ length: 6 }, () => rpc(body)));
    for (const answer of answers) {
      expect([200, 429]).toContain(answer.status);
      if (answer.status === 429) expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    expect(answers.some((answer) => answer.status === 200)).toBe(true);
  });
});

describe("the verification budget", () => {
  it("answers the eleventh verification of a caller 429 with Retry-After and a translated message", async () => {
    const body = JSON.stringify({ json: { organizationId: owner.organizationId } });
    const headers = {
      "content-type": "application/json",
      cookie: owner.cookie,
      origin: server.origin,
      "sec-fetch-site": "same-origin",
      "accept-language": "de-DE",
    };
    for (let i = 0; i < 10; i++) expect((await send("/rpc/auditLog/verify", { method: "POST", headers, body })).status).toBe(200);
    const refused = await send("/rpc/auditLog/verify", { method: "POST", headers, body });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(refused.text).toMatch(/Versuche/);
  });
});

describe("the integrity page's form under hostile posts", () => {
  const PAGE = "/dashboard/organization-settings/audit-log/integrity";

  it("answers junk fields without JavaScript and through the data request below 500, cross-site 403", async () => {
    const forms = [
      "",
      "from=2026-02-30",
      "from=9999-12-31&to=0000-01-01",
      "from=%00&to=%00",
      `from=${"9".repeat(10000)}`,
      "from=2026-01-01&from=2026-01-02",
      "to=2026-03-01&from=2026-03-02",
      "intent=delete&organizationId=x",
      "%%%",
    ];
    for (const form of forms) {
      for (const path of [PAGE, `${PAGE}.data`]) {
        const answer = await send(path, {
          method: "POST",
          headers: {
            cookie: owner.cookie,
            "content-type": "application/x-www-form-urlencoded",
            origin: server.origin,
            "sec-fetch-site": "same-origin",
            "accept-language": "de-DE",
          },
          body: form,
        });
        expect([200, 202, 204, 400, 429], `${path} ${form}`).toContain(answer.status);
        await pool().query("DELETE FROM rate_limits");
      }
    }
    const crossSite = await send(PAGE, {
      method: "POST",
      headers: {
        cookie: owner.cookie,
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
      },
      body: "from=2026-01-01",
    });
    expect(crossSite.status).toBe(403);
    const multipart = new FormData();
    multipart.set("from", new Blob(["x".repeat(100_000)]), "f.txt");
    const upload = await send(PAGE, {
      method: "POST",
      headers: { cookie: owner.cookie, origin: server.origin, "sec-fetch-site": "same-origin" },
      body: multipart,
    });
    expect(upload.status).toBeGreaterThanOrEqual(400);
  });
});

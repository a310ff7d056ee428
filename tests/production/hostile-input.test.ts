// The hostile-input suite: the real production server (scripts/start.ts over the build), started
// by this test, gets generated bad input on every page, form action and procedure, and on the
// request line itself. It must answer every request below 500, stay up, change nothing in the
// database, keep its memory flat under a huge chunked body, and never log a secret.
//
// Deterministic: the seed is HOSTILE_SEED (default below) and fast-check prints the seed and path
// of any failing case, so `HOSTILE_SEED=<seed> npx vitest run tests/production/hostile-input.test.ts` replays it.
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAuditEvent } from "~/audit/record.server";
import { createSession, sessionIdFromToken } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { Role } from "~/generated/prisma/enums";
import { DEMO_PASSWORD, seedDemoData } from "../../prisma/seed.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { rawRequest, type RawRequest, type RawResponse } from "./raw-http.ts";

const SEED = Number(process.env.HOSTILE_SEED ?? 20261122);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);
const databaseUrl = process.env.DATABASE_URL!;

let server: ProductionServer;
let db: pg.Client;
const ids = { acme: "", owner: "", staff: "" };
const cookies = { owner: "", member: "", staff: "" };
const answered: { request: string; status: number }[] = [];

/** Rows that hostile input must never change (sessions and rate-limit counters may). */
const WATCHED_TABLES: Record<string, string> = {
  users: "SELECT * FROM users",
  organizations: "SELECT * FROM organizations",
  memberships: "SELECT * FROM memberships",
  invitations: "SELECT * FROM invitations",
  api_keys: "SELECT * FROM api_keys",
  audit_events: "SELECT * FROM audit_events",
  recovery_codes: "SELECT * FROM recovery_codes",
  // Sessions may slide their expiry; who they belong to and what they point at may not change.
  sessions: "SELECT id, user_id, active_organization_id, two_factor_verified, authenticated_at FROM sessions",
  // Opening support access is a change; a successful support read records a view, which is not.
  support_actions: "SELECT * FROM support_actions WHERE action = 'access.opened'",
  support_access_grants: "SELECT * FROM support_access_grants",
  // A provider event id is kept only with a change it made.
  billing_provider_events: "SELECT * FROM billing_provider_events",
  organization_logos: "SELECT id, organization_id, content_type, byte_size FROM organization_logos",
  // Pending links: a refused request may neither add, replace nor use one.
  email_verifications: "SELECT * FROM email_verifications",
  email_changes: "SELECT * FROM email_changes",
  password_resets: "SELECT * FROM password_resets",
  // No refused request may leave a mail behind to be sent.
  mail_jobs: "SELECT id, task_identifier FROM graphile_worker.jobs",
};

async function fingerprint(): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const [table, query] of Object.entries(WATCHED_TABLES)) {
    const { rows } = await db.query<{ count: string; digest: string | null }>(
      `SELECT count(*)::text AS count, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM (${query}) t`,
    );
    result[table] = `${rows[0]!.count}:${rows[0]!.digest ?? "-"}`;
  }
  return result;
}

async function send(request: RawRequest): Promise<RawResponse> {
  const response = await rawRequest(server.port, request);
  const label = `${request.method ?? "GET"} ${request.target.slice(0, 120)}`;
  answered.push({ request: label, status: response.status });
  if (response.status >= 500) throw new Error(`${response.status} for ${label}\n${response.body.toString("utf8").slice(0, 500)}`);
  return response;
}

const sameOrigin = () => ({ Origin: server.origin, "Sec-Fetch-Site": "same-origin" });

// ---- generated values ---------------------------------------------------------------------

const controlCharacter = fc.oneof(
  fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
  fc.constantFrom("\u007f", "\u0085", "\u009b"),
);
/** Strings no text field may accept: control characters, broken Unicode, or far too long. */
const unstorableText = fc.oneof(
  fc.tuple(fc.string({ maxLength: 12 }), controlCharacter, fc.string({ maxLength: 12 })).map(([a, c, b]) => `${a}${c}${b}`),
  fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom("\ud800", "\udfff", "\ufffd", "\udbff\ud800")).map(([a, s]) => `${a}${s}`),
  fc.integer({ min: 3_000, max: 30_000 }).map((n) => "x".repeat(n)),
);
/** A form field as sent: one bad value, or the field repeated. */
const formValue = fc.oneof(
  { weight: 3, arbitrary: unstorableText.map((v) => [v]) },
  fc.array(unstorableText, { minLength: 2, maxLength: 3 }),
);
/** JSON values that are not the string a field wants. */
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);
const badJsonField = fc.oneof(unstorableText, wrongType);
const absurdDay = fc.oneof(
  fc.constantFrom(
    "0000-01-01",
    "0001-01-01",
    "1899-12-31",
    "9999-99-99",
    "10000-01-01",
    "2026-02-30",
    "2026-13-01",
    "-001-01-01",
    "+275760-09-13",
    "2026-1-1",
    " ",
    "",
  ),
  fc.string({ maxLength: 14 }),
  fc
    .date({ noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10))
    .filter((d) => d < "2000" || d > "9999"),
);
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");
const forgedCursor = fc.oneof(
  fc
    .tuple(
      fc.constantFrom(
        "0000-01-01T00:00:00.000Z",
        "0001-01-01T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z",
        "+275760-09-13T00:00:00.000Z",
        "2026-02-30T00:00:00.000Z",
      ),
      fc.uuid(),
    )
    .map(([iso, id]) => base64url(`${iso}|${id}`)),
  fc.string({ maxLength: 60 }).map(base64url),
  fc.string({ maxLength: 250 }),
  fc.constantFrom("", " ", "%", "==", "....", "a|b|c"),
);
/** Percent-encodes like a browser, except that lone surrogates go out as the invalid UTF-8 bytes
 * (ED A0 80) a hostile client would send; encodeURIComponent would throw on them. */
function percentEncode(value: string): string {
  return value
    .split(/([\ud800-\udbff][\udc00-\udfff])/)
    .map((part, i) =>
      i % 2
        ? encodeURIComponent(part)
        : part
            .split("")
            .map((c) => (/[\ud800-\udfff]/.test(c) ? "%ED%A0%80" : encodeURIComponent(c)))
            .join(""),
    )
    .join("");
}
const queryPart = (name: string, value: string) => `${percentEncode(name)}=${percentEncode(value)}`;
function formBody(fields: Record<string, string[]>): string {
  return Object.entries(fields)
    .flatMap(([name, values]) => values.map((value) => queryPart(name, value)))
    .join("&");
}

// ---- setup ---------------------------------------------------------------------------------

beforeAll(async () => {
  await seedDemoData(databaseUrl);
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const user = async (email: string) => (await db.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [email])).rows[0]!.id;
  ids.acme = (await db.query<{ id: string }>("SELECT id FROM organizations WHERE slug = 'acme'")).rows[0]!.id;
  ids.owner = await user("owner@acme.test");
  ids.staff = await user("staff@platform.test");
  const session = async (userId: string, organizationId: string | null, twoFactorVerified = false) =>
    `session=${(await createSession(userId, { twoFactorVerified, activeOrganizationId: organizationId })).token}`;
  cookies.owner = await session(ids.owner, ids.acme);
  cookies.member = await session(await user("member@acme.test"), ids.acme);
  cookies.staff = await session(ids.staff, null, true);
  // Support access to Acme opened for the staff session, so hostile support reads reach the log.
  await db.query(
    "INSERT INTO support_access_grants (session_id, organization_id, admin_user_id, reason) VALUES ($1, $2, $3, 'Hostile-input test run')",
    [sessionIdFromToken(cookies.staff.slice("session=".length)), ids.acme, ids.staff],
  );
  // A few real events, so list pages and cursors have rows to page through.
  for (const name of ["Acme One", "Acme Two", "Acme"]) {
    await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: ids.acme,
        action: "organization.settings_changed",
        actor: { kind: "user", id: ids.owner },
        target: { type: "organization", id: ids.acme },
        details: { name: { from: "Acme", to: name } },
      }),
    );
  }
  server = await startProductionServer(databaseUrl);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await db?.end();
});

// ---- the suite -------------------------------------------------------------------------------

describe("hostile input against the production server", () => {
  let before: Record<string, string>;

  it("takes a fingerprint of the data first", async () => {
    before = await fingerprint();
    expect(Number(before.audit_events!.split(":")[0])).toBeGreaterThan(0);
  });

  it("keeps the body limit for chunked uploads without growing (64 MiB)", async () => {
    const upload = async (target: string) => {
      const contentType = target.startsWith("/rpc") ? "application/json" : "application/x-www-form-urlencoded";
      const response = await send({
        method: "POST",
        target,
        headers: { ...sameOrigin(), Cookie: cookies.owner, "Content-Type": contentType },
        chunkedBytes: 64 * 1024 * 1024,
      });
      expect(response.status, target).toBe(413);
    };
    const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
    const before = server.residentBytes();
    const readings = [before];
    for (const target of ["/login", "/rpc/organization/list", "/dashboard/organization-settings"]) {
      await upload(target);
      readings.push(server.residentBytes());
    }
    // /rpc takes POST only: a HEAD with a body is refused before a byte of it is kept.
    const head = await send({
      method: "HEAD",
      target: "/rpc/apiKey/authenticate",
      headers: { "Content-Type": "application/json" },
      chunkedBytes: 64 * 1024 * 1024,
    });
    expect(head.status).toBe(405);
    readings.push(server.residentBytes());
    const declared = await send({ method: "POST", target: "/login", headers: sameOrigin(), body: Buffer.alloc(64 * 1024 * 1024, "a") });
    expect(declared.status).toBe(413);
    readings.push(server.residentBytes());
    console.info(`resident memory around four 64 MiB uploads: ${readings.map(mib).join(" → ")}`);
    for (const reading of readings)
      expect(reading - before, `resident memory grew: ${readings.map(mib).join(" → ")}`).toBeLessThan(20 * 1024 * 1024);
  });

  it("answers garbage request lines, Host headers and methods with 4xx", async () => {
    const badHost = fc.oneof(
      fc.constantFrom("a b", "", " ", "evil.example/path", "user@host", "[::1", "host:99999999", "ho\u00e9st", "%00", "a..b:1:2"),
      fc.string({ maxLength: 20 }).map((s) => s.replace(/[\r\n]/g, "")),
    );
    const badTarget = fc.oneof(
      fc.constantFrom(
        "*",
        "login",
        "http://127.0.0.1/login",
        "https://evil.example/dashboard",
        "http://a b/",
        "//evil.example/x",
        "/%",
        "/%E0%A4%A",
        "/dashboard/%00",
        "/..%2F..%2Fetc/passwd",
        "/login?redirectTo=%0d%0aSet-Cookie:x=1",
        `/${"a".repeat(9_000)}`,
      ),
      fc.webUrl(),
      fc.string({ maxLength: 40 }).map((s) => `/${encodeURIComponent(s)}`),
    );
    const method = fc.constantFrom(
      "GET",
      "HEAD",
      "POST",
      "OPTIONS",
      "TRACE",
      "PROPFIND",
      "PUT",
      "DELETE",
      "PATCH",
      "MKCOL",
      "LOCK",
      "SEARCH",
      "PURGE",
    );
    const path = fc.constantFrom(
      "/login",
      "/dashboard",
      "/rpc/organization/list",
      "/rpc/apiKey/authenticate",
      "/admin",
      "/assets/x.js",
      "/healthz",
      "/api/auth/organization/update",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ method, target: path, host: badHost }),
          fc.record({ method, target: badTarget }),
          fc.record({ method, target: path }),
        ),
        async (request) => {
          // Every method gets a body: one that is not a POST must not be read (or run) as one.
          await send({
            ...request,
            headers: { Accept: "text/html", "Content-Type": "application/json" },
            body: '{"json":{"name":"Evil"}}',
          });
        },
      ),
      { seed: SEED, numRuns: RUNS * 4 },
    );
  });

  it("survives hostile header values on pages and procedures", async () => {
    // Node refuses control characters in headers itself; everything else it passes on, in Latin-1.
    const headerValue = fc.oneof(
      fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
      fc.constantFrom(
        "",
        "null",
        "same-origin",
        "cross-site",
        "none",
        "Bearer ",
        "Bearer sk_",
        "text/html;q=abc",
        "de;q=NaN,en;q=-1",
        "0.0.0.0, 1.1.1.1",
        "=;=;",
        `session=${"a".repeat(32)}`,
      ),
    );
    const names = [
      "Cookie",
      "Accept-Language",
      "Accept",
      "Origin",
      "Sec-Fetch-Site",
      "Content-Type",
      "Authorization",
      "X-Forwarded-For",
      "X-Request-Id",
      "Referer",
      "User-Agent",
    ];
    const request = fc.record({
      target: fc.constantFrom(
        "/login",
        "/signup",
        "/dashboard",
        "/rpc/apiKey/authenticate",
        "/rpc/organization/list",
        "/dashboard/organization-settings/audit-log",
        "/no/such/page",
      ),
      method: fc.constantFrom("GET", "POST"),
      headers: fc.dictionary(fc.constantFrom(...names), headerValue, { maxKeys: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ target, method, headers }) => {
        const body = method === "POST" ? (target.startsWith("/rpc") ? '{"json":{"scopes":[]}}' : "email=x") : undefined;
        await send({ target, method, headers: headers as Record<string, string>, body });
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });

  it("refuses every form action's bad fields with 4xx and no change", async () => {
    type FormTarget = { path: string; cookie?: string; fixed?: Record<string, string[]>; fields: string[] };
    const forms: FormTarget[] = [
      { path: "/login", fields: ["email", "password", "redirectTo"] },
      { path: "/signup", fields: ["name", "email", "password", "confirmPassword"] },
      {
        path: "/signup?redirectTo=/invitations/accept%3Ftoken%3Dx",
        fields: ["name", "email", "password", "confirmPassword", "redirectTo"],
      },
      { path: "/verify-email?token=x", fields: ["token", "password", "redirectTo"] },
      { path: "/verify-email?token=x", cookie: "member", fields: ["token", "password"] },
      { path: "/login/two-factor", cookie: "staff", fields: ["code"] },
      { path: "/dashboard/organizations/new", cookie: "owner", fields: ["name", "slug"] },
      {
        path: "/dashboard/organization-settings",
        cookie: "owner",
        fixed: { intent: ["settings"] },
        fields: ["name", "slug", "requireTwoFactor", "removeLogo"],
      },
      { path: "/dashboard/organization-settings", cookie: "owner", fixed: { intent: ["delete"] }, fields: ["confirmName"] },
      { path: "/dashboard/organization-settings/members", cookie: "owner", fixed: { intent: ["invite"] }, fields: ["email", "role"] },
      { path: "/dashboard/organization-settings/members", cookie: "owner", fixed: { intent: ["role"] }, fields: ["userId", "role"] },
      { path: "/dashboard/organization-settings/members", cookie: "owner", fixed: { intent: ["remove"] }, fields: ["userId"] },
      { path: "/dashboard/organization-settings/members", cookie: "owner", fixed: { intent: ["cancel"] }, fields: ["invitationId"] },
      { path: "/dashboard/organization-settings/members", cookie: "member", fields: ["intent", "userId", "role"] },
      { path: "/invitations/accept?token=x", cookie: "member", fields: ["token"] },
      {
        path: "/dashboard/organization-settings/api-keys",
        cookie: "owner",
        fixed: { intent: ["issue"] },
        fields: ["name", "scopes", "expiresOn"],
      },
      { path: "/dashboard/organization-settings/api-keys", cookie: "owner", fixed: { intent: ["rotate"] }, fields: ["keyId"] },
      { path: "/dashboard/organization-settings/api-keys", cookie: "owner", fixed: { intent: ["revoke"] }, fields: ["keyId"] },
      { path: "/dashboard/organization-settings/api-keys", cookie: "member", fixed: { intent: ["issue"] }, fields: ["name", "scopes"] },
      { path: "/dashboard?index", cookie: "owner", fixed: { intent: ["switch"] }, fields: ["organizationId"] },
      { path: "/dashboard/account/security", cookie: "owner", fixed: { intent: ["confirm"] }, fields: ["code"] },
      { path: "/dashboard/account/security", cookie: "owner", fixed: { intent: ["disable"] }, fields: ["code"] },
      { path: "/dashboard/organization-settings/api-keys", cookie: "owner", fields: ["intent", "name", "keyId"] },
      { path: "/dashboard/account/security", cookie: "owner", fields: ["intent", "code"] },
      { path: "/logout", fields: ["x"] },
      { path: `/admin/organizations/${ids.acme}/access`, cookie: "staff", fields: ["reason", "ticket"] },
      {
        path: "/dashboard/account",
        cookie: "member",
        fixed: { intent: ["password"] },
        fields: ["currentPassword", "newPassword", "confirmPassword"],
      },
      { path: "/dashboard/account", cookie: "member", fixed: { intent: ["revoke"] }, fields: ["sessionId"] },
      { path: "/dashboard/account", cookie: "member", fixed: { intent: ["name"] }, fields: ["name"] },
      { path: "/dashboard/account", cookie: "member", fixed: { intent: ["email"] }, fields: ["newEmail", "currentPassword"] },
      { path: "/dashboard/account/confirm-email?token=x", cookie: "member", fields: ["token"] },
      { path: "/dashboard/account", cookie: "member", fields: ["intent", "sessionId"] },
      { path: "/dashboard/account", cookie: "member", fixed: { intent: ["delete"] }, fields: ["password", "code", "confirm"] },
      { path: "/forgot-password", fields: ["email"] },
      { path: "/reset-password?token=x", fields: ["token", "newPassword", "confirmPassword"] },
      { path: "/dashboard/organization-settings/billing", cookie: "owner", fixed: { intent: ["checkout"] }, fields: ["planId"] },
      { path: "/dashboard/organization-settings/billing", cookie: "owner", fields: ["intent", "planId"] },
      { path: "/dashboard/organization-settings/billing", cookie: "member", fields: ["intent", "planId"] },
      { path: `/admin/organizations/${ids.acme}/access?redirectTo=https://evil.example`, cookie: "staff", fields: ["reason"] },
    ];
    const submission = fc.constantFrom(...forms).chain((form) =>
      fc.record({
        form: fc.constant(form),
        values: fc.tuple(...form.fields.map(() => formValue)),
        // Field names too: list indices in the hundreds of millions once made conform allocate them all.
        extra: fc.dictionary(
          fc.oneof(
            fc.string({ maxLength: 8 }),
            fc.constantFrom(
              "scopes[150000000]",
              "name[20000000]",
              "redirectTo[99999999]",
              "scopes[0][50000000]",
              // conform's own fields, which it parses as JSON, and names nested past its recursion.
              "__state__",
              "__intent__",
              `scopes${"[0]".repeat(3_000)}`,
              `${"a.".repeat(8_000)}b`,
            ),
          ),
          formValue,
          { maxKeys: 2 },
        ),
        accept: fc.constantFrom("text/html", "*/*", "application/json"),
        language: fc.constantFrom("en", "de", "xx;q=abc", ""),
      }),
    );
    await fc.assert(
      fc.asyncProperty(submission, async ({ form, values, extra, accept, language }) => {
        const fields: Record<string, string[]> = { ...extra, ...form.fixed };
        form.fields.forEach((name, i) => (fields[name] = values[i]!));
        const cookie = form.cookie ? cookies[form.cookie as keyof typeof cookies] : undefined;
        const response = await send({
          method: "POST",
          target: form.path,
          headers: {
            ...sameOrigin(),
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: accept,
            "Accept-Language": language,
            ...(cookie ? { Cookie: cookie } : {}),
          },
          body: formBody(fields),
        });
        // Every submission carries a bad field: nothing may succeed (a redirect means it did).
        if (form.path !== "/logout" && form.path !== "/login/two-factor") expect(response.status, form.path).toBeGreaterThanOrEqual(400);
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });

  it("refuses forms no page sends (conform's reserved fields, deep names, 40,000 fields, not a form) with 4xx, not stalling the server", async () => {
    const post = (target: string, body: string, contentType = "application/x-www-form-urlencoded", cookie?: string) =>
      send({
        method: "POST",
        target,
        headers: { ...sameOrigin(), "Content-Type": contentType, Accept: "text/html", ...(cookie ? { Cookie: cookie } : {}) },
        body,
      });
    for (const body of [
      "__state__=x",
      '__state__={"validated":1}',
      "__intent__=x",
      '__intent__={"type":"update","payload":{"name":"__proto__.x"}}',
    ])
      expect((await post("/login", body)).status, body).toBe(400);
    expect((await post("/forgot-password", `email${"[0]".repeat(3_000)}=1`)).status).toBe(400);
    // Every copy of a repeated name once cost a copy of the list so far: this body held the event loop for 5 s.
    const many = post("/login", Array.from({ length: 40_000 }, () => "x=1").join("&"));
    const alive = await send({ method: "GET", target: "/livez", headers: {} });
    expect(alive.status).toBe(200);
    const refused = await many;
    expect(refused.status).toBe(400);
    expect(refused.body.toString("utf8")).toContain("more fields than any form");
    // Not a form at all: read as an empty one, it passed the integrity page's all-optional form.
    const integrity = "/dashboard/organization-settings/audit-log/integrity";
    expect((await post(integrity, JSON.stringify({ from: "2026-01-01" }), "application/json", cookies.owner)).status).toBe(400);
  });

  it("refuses bad procedure input with 4xx: wrong types, unstorable strings, forged cursors, empty ids", async () => {
    const acme = () => ids.acme;
    const procedure = fc.oneof(
      fc.record({
        path: fc.constant("organization/create"),
        cookie: fc.constant("owner"),
        input: fc.record({ name: badJsonField, slug: fc.option(badJsonField) }),
      }),
      fc.record({
        path: fc.constant("organization/setActive"),
        cookie: fc.constant("owner"),
        input: fc.record({ organizationId: fc.oneof(badJsonField, fc.uuid()) }),
      }),
      fc.record({
        path: fc.constant("apiKey/issue"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record({
          organizationId: fc.constant(0).map(acme),
          name: badJsonField,
          scopes: fc.oneof(fc.constant(["audit:view"]), wrongType),
          expiresAt: fc.option(fc.oneof(absurdDay, wrongType)),
        }),
      }),
      fc.record({
        path: fc.constantFrom("apiKey/rotate", "apiKey/revoke"),
        cookie: fc.constant("owner"),
        input: fc.record({ organizationId: fc.oneof(fc.constant(0).map(acme), badJsonField), keyId: fc.oneof(badJsonField, fc.uuid()) }),
      }),
      fc.record({ path: fc.constant("apiKey/list"), cookie: fc.constant("owner"), input: fc.record({ organizationId: badJsonField }) }),
      fc.record({
        path: fc.constantFrom("auditLog/list", "support/auditLog/list"),
        cookie: fc.constantFrom("owner", "staff", "member"),
        input: fc.record(
          {
            organizationId: fc.constant(0).map(acme),
            action: badJsonField,
            actorId: badJsonField,
            from: absurdDay,
            to: absurdDay,
            cursor: fc.oneof(forgedCursor, wrongType),
          },
          { requiredKeys: ["organizationId"] },
        ),
      }),
      fc.record({
        path: fc.constant("account/changePassword"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record(
          { currentPassword: badJsonField, newPassword: fc.oneof(badJsonField, fc.constant("short")) },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        path: fc.constant("account/delete"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record(
          {
            password: badJsonField,
            code: fc.oneof(badJsonField, fc.constant("123456")),
            confirm: fc.oneof(badJsonField, fc.constant("member@acme.test")),
          },
          { requiredKeys: [] },
        ),
      }),
      fc.record({
        path: fc.constant("account/revokeSession"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record({ sessionId: fc.oneof(badJsonField, fc.constantFrom("", "0".repeat(63), "G".repeat(64))) }),
      }),
      fc.record({
        path: fc.constant("support/beginAccess"),
        cookie: fc.constantFrom("owner", "staff", "member"),
        input: fc.record(
          {
            organizationId: fc.oneof(fc.constant(0).map(acme), badJsonField),
            reason: fc.oneof(badJsonField, unstorableText),
            ticket: fc.oneof(badJsonField, fc.constant("ZD-1")),
          },
          { requiredKeys: ["reason"] },
        ),
      }),
      fc.record({
        path: fc.constantFrom("auditLog/detail", "support/auditLog/detail"),
        cookie: fc.constantFrom("owner", "staff"),
        input: fc.record({
          organizationId: fc.constant(0).map(acme),
          eventId: fc.oneof(fc.constantFrom("", "   ", "\u0000"), badJsonField, fc.uuid()),
        }),
      }),
      fc.record({
        path: fc.constantFrom("auditLog/actors", "support/auditLog/actors"),
        cookie: fc.constantFrom("owner", "staff"),
        input: fc.record({ organizationId: badJsonField }),
      }),
      fc.record({
        path: fc.constant("organization/inviteMember"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record({
          organizationId: fc.oneof(fc.constant(0).map(acme), badJsonField),
          email: fc.oneof(badJsonField, fc.constantFrom("owner@acme.test", "OWNER@ACME.TEST", "a@b", "x@example.com\u0000")),
          role: fc.oneof(badJsonField, fc.constantFrom("superuser", "Owner", "")),
        }),
      }),
      fc.record({
        path: fc.constantFrom("organization/resendInvitation", "organization/cancelInvitation"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record({ organizationId: fc.constant(0).map(acme), invitationId: fc.oneof(badJsonField, fc.uuid()) }),
      }),
      fc.record({
        path: fc.constant("organization/acceptInvitation"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record({ token: fc.oneof(badJsonField, fc.base64String({ minLength: 40, maxLength: 48 })) }),
      }),
      fc.record({
        path: fc.constantFrom("organization/updateMemberRole", "organization/removeMember"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record({
          organizationId: fc.constant(0).map(acme),
          userId: fc.oneof(badJsonField, fc.uuid()),
          role: fc.oneof(badJsonField, fc.constantFrom(...Object.values(Role))),
        }),
      }),
      fc.record({
        path: fc.constant("organization/update"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record(
          {
            organizationId: fc.constant(0).map(acme),
            name: badJsonField,
            slug: fc.oneof(badJsonField, fc.constantFrom("admin", "globex", "a", "UPPER CASE")),
            logoId: fc.oneof(badJsonField, fc.uuid()),
          },
          { requiredKeys: ["organizationId", "name"] },
        ),
      }),
      fc.record({
        path: fc.constantFrom("organization/delete", "organization/leave", "organization/members", "organization/invitations"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record(
          { organizationId: fc.oneof(badJsonField, fc.uuid()), confirmName: badJsonField },
          { requiredKeys: ["organizationId"] },
        ),
      }),
      fc.record({
        path: fc.constant("billing/checkout"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record(
          {
            organizationId: fc.oneof(fc.constant(0).map(acme), badJsonField, fc.uuid()),
            planId: fc.oneof(badJsonField, fc.constantFrom("platinum", "", "FREE")),
          },
          { requiredKeys: ["organizationId"] },
        ),
      }),
      fc.record({
        path: fc.constantFrom("billing/get", "billing/cancel", "billing/resume"),
        cookie: fc.constantFrom("owner", "member"),
        input: fc.record({ organizationId: fc.oneof(badJsonField, fc.uuid()) }),
      }),
      fc.record({
        path: fc.constant("apiKey/authenticate"),
        cookie: fc.constant(""),
        input: fc.record({ scopes: fc.oneof(wrongType, fc.array(badJsonField, { maxLength: 3 })) }),
      }),
      fc.record({
        path: fc.constantFrom("nope", "organization/nope", "__proto__/x", "apiKey/authenticate/extra"),
        cookie: fc.constant("owner"),
        input: fc.jsonValue(),
      }),
    );
    const envelope = fc.constantFrom("json", "bare", "broken", "array");
    // Field names that i18next would read as instructions if they ever reached a translation.
    const extraKey = fc.option(
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom(
          "__proto__",
          "constructor",
          '$t(zz, {"interpolation":{"escapeValue":true,"escape":"nope"}})',
          "{{max}}",
          '$t(errors:field.tooLong, {"max":"$t(x)"})',
        ),
      ),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(
        procedure,
        envelope,
        fc.string({ maxLength: 80 }),
        extraKey,
        async ({ path, cookie, input }, shape, authorization, extra) => {
          const withExtra =
            extra !== undefined && typeof input === "object" && input !== null && !Array.isArray(input) ? { ...input, [extra]: 1 } : input;
          const body =
            shape === "json"
              ? JSON.stringify({ json: withExtra })
              : shape === "bare"
                ? JSON.stringify(withExtra)
                : shape === "array"
                  ? "[1,2"
                  : `{"json": ${JSON.stringify(withExtra).slice(0, -1)}`;
          const response = await send({
            method: "POST",
            target: `/rpc/${path}`,
            headers: {
              ...sameOrigin(),
              "Content-Type": "application/json",
              ...(cookie ? { Cookie: cookies[cookie as keyof typeof cookies] } : {}),
              Authorization: `Bearer ${authorization.replace(/[\r\n]/g, "")}`,
            },
            body,
          });
          expect(response.status, path).toBeGreaterThanOrEqual(400);
        },
      ),
      { seed: SEED, numRuns: RUNS * 5 },
    );
  });

  it("answers hostile query strings and cookies on pages with 4xx or a page, never 5xx", async () => {
    const page = fc.oneof(
      fc.record({
        path: fc.constantFrom("/dashboard/organization-settings/audit-log", "/admin/organizations/ORG/audit-log"),
        query: fc.array(
          fc.tuple(
            fc.constantFrom("action", "actorId", "from", "to", "cursor", "event", "perPage", "lng"),
            fc.oneof(unstorableText, absurdDay, forgedCursor, fc.constantFrom("0", "-25", "25.0", " 50", "1e2", "101", "9".repeat(400))),
          ),
          { maxLength: 4 },
        ),
      }),
      fc.record({
        path: fc.constantFrom("/admin/organizations", "/admin/support-records", "/admin/organizations/ORG/access"),
        query: fc.array(
          fc.tuple(
            fc.constantFrom("q", "cursor", "adminId", "organizationId", "from", "to", "redirectTo"),
            fc.oneof(unstorableText, absurdDay, forgedCursor, fc.constantFrom("%", "_", "\\", "%%%%", "x".repeat(500))),
          ),
          { maxLength: 4 },
        ),
      }),
      fc.record({
        path: fc.constant("/dashboard/organization-settings/api-keys"),
        query: fc.array(
          fc.tuple(fc.constantFrom("revokedCursor", "confirm", "key", "lng"), fc.oneof(unstorableText, forgedCursor, fc.uuid())),
          { maxLength: 4 },
        ),
      }),
      fc.record({
        path: fc.constantFrom(
          "/",
          "/login",
          "/login/two-factor",
          "/signup",
          "/dashboard",
          "/dashboard/organization-settings",
          "/dashboard/organization-settings/api-keys",
          "/dashboard/account/security",
          "/dashboard/account",
          "/forgot-password",
          "/reset-password",
          "/verify-email",
          "/dashboard/account/confirm-email",
          "/dashboard/organizations/new",
          "/admin",
          "/admin/organizations",
          "/admin/organizations/ORG",
          "/admin.data",
          "/dashboard.data",
        ),
        query: fc.array(fc.tuple(fc.constantFrom("redirectTo", "lng", "_routes", "index", "token", "notice"), unstorableText), {
          maxLength: 3,
        }),
      }),
    );
    const cookie = fc.oneof(
      fc.constantFrom("owner", "staff", "member"),
      fc.constantFrom(
        "session=forged",
        `session=${"a".repeat(32)}`,
        "lng=xx",
        "lng=de; session=\u0000",
        `session=${"x".repeat(8_000)}`,
        "=;;=",
        "session",
      ),
    );
    await fc.assert(
      fc.asyncProperty(page, cookie, fc.constantFrom("text/html", "*/*"), async ({ path, query }, who, accept) => {
        const target = `${path.replace("ORG", ids.acme)}${query.length ? "?" : ""}${query.map(([name, value]) => queryPart(name, value)).join("&")}`;
        const cookieHeader = who in cookies ? cookies[who as keyof typeof cookies] : who;
        await send({ target, headers: { Accept: accept, Cookie: cookieHeader.replace(/[\r\n\u0000]/g, "") } });
      }),
      { seed: SEED, numRuns: RUNS * 3 },
    );
  });

  it("answers hostile export requests with 4xx and exports nothing (so records nothing)", async () => {
    const exportRequest = fc.record({
      method: fc.constantFrom("GET", "HEAD", "POST"),
      who: fc.constantFrom("owner", "member", "staff"),
      // At least one bad value, so that no request can be a real export.
      bad: fc.tuple(fc.constantFrom("format", "action", "actorId", "targetId", "from", "to"), fc.oneof(unstorableText, absurdDay)),
      query: fc.array(
        fc.tuple(
          fc.constantFrom("format", "action", "actorId", "from", "to", "lng", "cursor"),
          fc.oneof(unstorableText, absurdDay, fc.constant("csv")),
        ),
        { maxLength: 3 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(exportRequest, async ({ method, who, bad, query }) => {
        const target = `/api/organizations/${ids.acme}/audit-log/export?${[bad, ...query].map(([name, value]) => queryPart(name, value)).join("&")}`;
        const response = await send({
          method,
          target,
          headers: { Cookie: cookies[who as keyof typeof cookies], "Sec-Fetch-Site": "same-origin" },
        });
        expect(response.status, target.slice(0, 200)).toBeGreaterThanOrEqual(400);
        expect(response.status, target.slice(0, 200)).toBeLessThan(500);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("answers hostile payment provider deliveries with 4xx and changes nothing", async () => {
    const target = "/api/billing/provider-events";
    const json = { "Content-Type": "application/json" };
    // This server runs on an external database without BILLING_WEBHOOK_SECRET: no delivery may
    // change anything, signed or not, well-formed or not.
    const fixed: RawRequest[] = [
      { method: "GET", target },
      { method: "HEAD", target },
      { method: "PUT", target, headers: json, body: "{}" },
      { method: "DELETE", target },
      { method: "PATCH", target, headers: json, body: "{}" },
      { method: "POST", target, headers: { "Content-Type": "text/plain" }, body: "{}" },
      { method: "POST", target, headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "id=1&type=refund" },
      { method: "POST", target, body: "{}" },
      { method: "POST", target, headers: json, body: "{not json" },
      { method: "POST", target, headers: json, body: "" },
      { method: "POST", target, headers: json, body: "[]" },
      { method: "POST", target, headers: json, body: "null" },
      { method: "POST", target, headers: json, body: JSON.stringify({ id: null, type: null, organizationId: null }) },
      { method: "POST", target, headers: json, body: JSON.stringify({ id: "e1", type: "upgrade_everything", organizationId: ids.acme }) },
      { method: "POST", target, headers: json, body: JSON.stringify({ id: "e1", type: "refund", organizationId: ids.acme }) },
      {
        method: "POST",
        target,
        headers: { ...json, "KeyLedger-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
        body: JSON.stringify({ id: "e2", type: "dispute", organizationId: ids.acme }),
      },
      // The owner's own browser session is no credential here.
      {
        method: "POST",
        target,
        headers: { ...json, ...sameOrigin(), Cookie: cookies.owner },
        body: JSON.stringify({ id: "e3", type: "refund", organizationId: ids.acme }),
      },
      {
        method: "POST",
        target,
        headers: json,
        body: JSON.stringify({ id: "e4", type: "refund", organizationId: ids.acme }) + " ".repeat(2 * 1024 * 1024),
      },
    ];
    for (const request of fixed) {
      const response = await send(request);
      expect(response.status, `${request.method} ${String(request.body ?? "").slice(0, 60)}`).toBeGreaterThanOrEqual(400);
    }
    const delivery = fc.record({
      body: fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        fc
          .record({
            id: badJsonField,
            type: fc.oneof(badJsonField, fc.constantFrom(...["payment_failed", "refund", "dispute"])),
            organizationId: fc.oneof(
              badJsonField,
              fc.constant(0).map(() => ids.acme),
            ),
          })
          .map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 200 }),
      ),
      signature: fc.option(
        fc.string({ maxLength: 120 }).map((v) => v.replace(/[\r\n]/g, "")),
        { nil: undefined },
      ),
      contentType: fc.constantFrom("application/json", "application/json; charset=utf-8", "text/json", ""),
    });
    await fc.assert(
      fc.asyncProperty(delivery, async ({ body, signature, contentType }) => {
        const headers: Record<string, string> = {};
        if (contentType) headers["Content-Type"] = contentType;
        if (signature !== undefined) headers["KeyLedger-Signature"] = signature;
        const response = await send({ method: "POST", target, headers, body });
        expect(response.status).toBeGreaterThanOrEqual(400);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("answers cross-site writes with 403 before reading them", async () => {
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { Origin: "null" },
    ];
    for (const headers of crossSite) {
      const response = await send({
        method: "POST",
        target: "/dashboard/organizations/new",
        headers: { ...headers, Cookie: cookies.owner, "Content-Type": "application/x-www-form-urlencoded" },
        body: "name=Evil+Corp",
      });
      expect(response.status).toBe(403);
    }
  });

  it("is still up, and nothing changed in the database", async () => {
    expect(server.child.exitCode, server.output().slice(-2_000)).toBeNull();
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    const after = await fingerprint();
    if (JSON.stringify(after) !== JSON.stringify(before)) console.error((await db.query("SELECT * FROM users")).rows);
    expect(after).toEqual(before);
    expect(answered.filter((a) => a.status >= 500)).toEqual([]);
    expect(server.output()).not.toMatch(/uncaught exception|unhandled promise rejection|"level":"fatal"/);
  });

  it("logs one line per request with its id, and never a password, token, secret or cookie", async () => {
    const login = await fetch(`${server.origin}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { ...sameOrigin(), "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "owner@acme.test", password: DEMO_PASSWORD, redirectTo: "/dashboard" }),
    });
    expect(login.status).toBe(302);
    const token = /session=([a-z2-7]+)/.exec(login.headers.get("set-cookie") ?? "")?.[1];
    expect(token).toBeTruthy();
    const rpc = (path: string, input: unknown, headers: Record<string, string>) =>
      fetch(`${server.origin}/rpc/${path}`, {
        method: "POST",
        headers: { ...sameOrigin(), "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ json: input }),
      });
    const issued = await rpc(
      "apiKey/issue",
      { organizationId: ids.acme, name: "hostile-suite log check", scopes: ["audit:view"] },
      { Cookie: `session=${token}` },
    );
    expect(issued.status).toBe(200);
    const { secret } = ((await issued.json()) as { json: { secret: string } }).json;
    const authenticated = await rpc("apiKey/authenticate", { scopes: ["audit:view"] }, { Authorization: `Bearer ${secret}` });
    expect(authenticated.status).toBe(200);
    const requestId = authenticated.headers.get("x-request-id");
    await new Promise((resolve) => setTimeout(resolve, 300));

    const output = server.output();
    for (const secretValue of [DEMO_PASSWORD, token!, secret, secret.slice(3), cookies.owner.slice("session=".length)])
      expect(output).not.toContain(secretValue);
    expect(output).not.toMatch(/authorization|set-cookie|"cookie"/i);
    const lines = server.logLines();
    const line = lines.find((l) => l.requestId === requestId && l.msg === "request");
    expect(line).toMatchObject({ method: "POST", path: "/rpc/apiKey/authenticate", status: 200 });
    expect(typeof line?.durationMs).toBe("number");
    const issueLine = lines.filter((l) => l.path === "/rpc/apiKey/issue" && l.msg === "request").at(-1);
    expect(issueLine).toMatchObject({ status: 200, organizationId: ids.acme, userId: ids.owner });
  });
});

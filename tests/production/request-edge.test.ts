// What the request edge promises every response, checked on the real production server: security
// headers and a per-response script nonce, a request id, error pages people can use (a translated
// title, a sign-in link back to the page), and the admin tree hidden from everyone else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { seedDemoData } from "../../prisma/seed.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { rawRequest } from "./raw-http.ts";

let server: ProductionServer;
const cookies = { staleStaff: "", member: "", owner: "", admin: "" };

beforeAll(async () => {
  await seedDemoData(process.env.DATABASE_URL!);
  const staff = await prisma.user.findUniqueOrThrow({ where: { email: "staff@platform.test" }, select: { id: true } });
  const member = await prisma.user.findUniqueOrThrow({
    where: { email: "member@acme.test" },
    select: { id: true, memberships: { select: { organizationId: true } } },
  });
  // Signed in (second factor passed) an hour ago: no longer fresh enough for the admin pages.
  const anHourAgo = new Date(Date.now() - 60 * 60 * 1000);
  cookies.staleStaff = `session=${(await createSession(staff.id, { twoFactorVerified: true, now: anHourAgo })).token}`;
  cookies.member = `session=${(await createSession(member.id, { twoFactorVerified: false, activeOrganizationId: member.memberships[0]!.organizationId })).token}`;
  for (const role of ["owner", "admin"] as const) {
    const user = await prisma.user.findUniqueOrThrow({ where: { email: `${role}@acme.test` }, select: { id: true } });
    cookies[role] =
      `session=${(await createSession(user.id, { twoFactorVerified: false, activeOrganizationId: member.memberships[0]!.organizationId })).token}`;
  }
  server = await startProductionServer(process.env.DATABASE_URL!);
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

const page = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}${path}`, { headers: { Accept: "text/html", ...headers }, redirect: "manual" });

describe("the request edge on the production server", () => {
  it("sends a nonce-based Content-Security-Policy, and every script of the page carries the nonce", async () => {
    const response = await page("/login");
    const policy = response.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script, script).toContain(`nonce="${nonce}"`);
    // A new nonce for every response.
    const again = (await page("/login")).headers.get("content-security-policy");
    expect(again).not.toContain(nonce!);
  });

  it("renders each of many simultaneous requests in its own language (the per-language i18next instances are shared)", async () => {
    const kinds: { path: string; headers: Record<string, string>; german: boolean }[] = [
      { path: "/login?lng=de", headers: {}, german: true },
      { path: "/login", headers: { "Accept-Language": "de-AT, en;q=0.5" }, german: true },
      { path: "/login", headers: { Cookie: "lng=de" }, german: true },
      { path: "/login", headers: { "Accept-Language": "fr, en;q=0.8, de;q=0" }, german: false },
    ];
    const asks = Array.from({ length: 40 }, (_, i) => kinds[i % kinds.length]!);
    const answers = await Promise.all(asks.map(async (ask) => (await page(ask.path, ask.headers)).text()));
    answers.forEach((html, i) => {
      const { german } = asks[i]!;
      expect(html, asks[i]!.path).toContain(german ? '<html lang="de"' : '<html lang="en"');
      expect(html).toContain(german ? "Bei Ihrem Konto anmelden" : "Sign in to your account");
      expect(html).not.toContain(german ? "Sign in to your account" : "Bei Ihrem Konto anmelden");
    });
  });

  it("sends the baseline headers and a request id on every kind of response", async () => {
    for (const path of ["/login", "/healthz", "/favicon.svg", "/rpc/organization/list", "/no/such/page"]) {
      const response = await fetch(`${server.origin}${path}`, { method: path.startsWith("/rpc") ? "POST" : "GET" });
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-request-id"), path).toMatch(/^[0-9a-f-]{36}$/);
      // No HSTS on plain http (APP_ORIGIN is not https here).
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
    }
  });

  it("answers OPTIONS with Allow, other methods with 405 and Allow, in the caller's language", async () => {
    const options = await fetch(`${server.origin}/login`, { method: "OPTIONS" });
    expect([options.status, options.headers.get("allow")]).toEqual([204, "GET, HEAD, POST, OPTIONS"]);
    const propfind = await rawRequest(server.port, { method: "PROPFIND", target: "/login", headers: { "Accept-Language": "de" } });
    expect(propfind.status).toBe(405);
    expect(propfind.head).toMatch(/\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/i);
    expect(JSON.parse(propfind.body.toString("utf8"))).toEqual({
      code: "METHOD_NOT_SUPPORTED",
      message: "Diese Methode ist hier nicht erlaubt.",
    });
  });

  it("renders React Router's own 405 (a POST to a page without an action) as a translated page", async () => {
    const response = await fetch(`${server.origin}/dashboard/organization-settings/audit-log`, {
      method: "POST",
      headers: {
        Accept: "text/html",
        "Accept-Language": "de",
        Cookie: cookies.member,
        Origin: server.origin,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "x=1",
      redirect: "manual",
    });
    expect(response.status).toBe(405);
    expect(await response.text()).toContain("Fehler 405");
  });

  it("answers a bad Host or request target with 400, and keeps serving", async () => {
    expect((await rawRequest(server.port, { target: "/login", host: "a b" })).status).toBe(400);
    expect((await rawRequest(server.port, { target: "*" })).status).toBe(400);
    const absolute = await rawRequest(server.port, { target: `${server.origin}/healthz`, host: "ignored.example" });
    expect(absolute.status).toBe(200);
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  });

  it("hides the admin tree: 404 for signed-out people, members, admins and owners, on every path", async () => {
    for (const cookie of [undefined, cookies.member, cookies.admin, cookies.owner]) {
      for (const path of [
        "/admin",
        "/admin/",
        "/admin.data",
        "/admin/organizations",
        "/admin/organizations/00000000-0000-0000-0000-000000000000",
        "/admin/organizations/00000000-0000-0000-0000-000000000000/access",
        "/admin/organizations/00000000-0000-0000-0000-000000000000/audit-log",
        "/admin/support-records",
      ]) {
        const response = await page(path, cookie ? { Cookie: cookie } : {});
        expect(response.status, `${cookie ?? "signed out"}: ${path}`).toBe(404);
        // A page like any other missing page, not a bare JSON body.
        if (!path.endsWith(".data")) expect(await response.text(), path).toContain("<title>Page not found · KeyLedger</title>");
        // A POST must not give the tree away with a 405 ("this page exists but takes no POST").
        const post = await fetch(`${server.origin}${path}`, {
          method: "POST",
          headers: { Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
          body: "x=1",
          redirect: "manual",
        });
        expect(post.status, `POST ${path}`).toBe(404);
      }
      expect((await page("/admin.data?_routes=root", cookie ? { Cookie: cookie } : {})).status, "/admin.data?_routes=root").toBe(404);
    }
  });

  it("sends a stale admin session to sign in again and back to the page, and the sign-in page serves it", async () => {
    const response = await page("/admin/organizations?q=acme", { Cookie: `${cookies.staleStaff}; lng=de` });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fadmin%2Forganizations%3Fq%3Dacme");
    // The signed-in (but stale) admin is shown the form instead of being sent to the dashboard.
    const login = await page("/login?redirectTo=%2Fadmin%2Forganizations%3Fq%3Dacme", { Cookie: cookies.staleStaff });
    expect(login.status).toBe(200);
    const loginHtml = await login.text();
    expect(loginHtml).toContain('name="redirectTo" value="/admin/organizations?q=acme"');
    expect(loginHtml).toContain("For your security, sign in again to continue to the page you asked for.");
    expect(loginHtml).toMatch(
      /<input[^>]*name="email"[^>]*value="staff@platform.test"|<input[^>]*value="staff@platform.test"[^>]*name="email"/,
    );
  });

  it("renders a signed-in person's 404 and 403 inside the app shell, with a translated title", async () => {
    for (const [path, status, title] of [
      ["/dashboard/no/such/page", 404, "Page not found"],
      ["/dashboard/organization-settings/api-keys", 403, "Access denied"],
    ] as const) {
      const response = await page(path, { Cookie: cookies.member });
      expect(response.status, path).toBe(status);
      const html = await response.text();
      expect(html, path).toContain(`<title>${title} · KeyLedger</title>`);
      expect(html, path).toContain('aria-label="Main navigation"');
    }
    // Signed out, an unknown dashboard path goes to the sign-in page first.
    expect((await page("/dashboard/no/such/page")).headers.get("location")).toBe("/login?redirectTo=%2Fdashboard%2Fno%2Fsuch%2Fpage");
  });
});

// The support console's pages over real HTTP on the production server, without JavaScript: the
// reason asked before the first view (and the way back to the page asked for), the banner, the
// records page, refusals of bad input, and no support data on the tenant's pages.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { prisma } from "~/db.server";
import { seedDemoData } from "../../prisma/seed.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";

let server: ProductionServer;
const ids = { acme: "", staff: "" };
const cookies = { staff: "", owner: "", adminWithoutTwoFactor: "" };
const REASON = "Acme asked why a key was revoked on Monday";

async function sessionCookie(email: string, activeOrganizationId: string | null = null) {
  const user = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true } });
  return `session=${(await createSession(user.id, { twoFactorVerified: true, activeOrganizationId })).token}`;
}

beforeAll(async () => {
  await seedDemoData(process.env.DATABASE_URL!);
  ids.acme = (await prisma.organizationSlug.findUniqueOrThrow({ where: { slug: "acme" } })).organizationId;
  ids.staff = (await prisma.user.findUniqueOrThrow({ where: { email: "staff@platform.test" } })).id;
  cookies.staff = await sessionCookie("staff@platform.test");
  cookies.owner = await sessionCookie("owner@acme.test", ids.acme);
  // Made a platform admin without ever enrolling a second factor (e.g. by admin:grant).
  await prisma.user.update({ where: { email: "admin@acme.test" }, data: { isPlatformAdmin: true } });
  cookies.adminWithoutTwoFactor = await sessionCookie("admin@acme.test", ids.acme);
  server = await startProductionServer(process.env.DATABASE_URL!);
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

const get = (path: string, cookie: string) =>
  fetch(`${server.origin}${path}`, { headers: { Accept: "text/html", Cookie: cookie }, redirect: "manual" });
const post = (path: string, cookie: string, form: Record<string, string>) =>
  fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
const supportActions = () =>
  prisma.supportAction.findMany({ where: { adminUserId: ids.staff }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

describe("the support console without JavaScript", () => {
  it("asks for a reason before the first view, comes back to the page asked for, and shows the reason in force", async () => {
    const log = `/admin/organizations/${ids.acme}/audit-log?action=organization.settings_changed`;
    const first = await get(log, cookies.staff);
    expect(first.status).toBe(302);
    const access = first.headers.get("location")!;
    expect(access).toBe(`/admin/organizations/${ids.acme}/access?redirectTo=${encodeURIComponent(log)}`);
    const form = await get(access, `${cookies.staff}; lng=de`);
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(formHtml).toContain("Warum benötigen Sie Einblick?");
    expect(formHtml).toMatch(/<textarea[^>]*name="reason"/);

    // A reason too short is refused in the form, translated; nothing is opened or recorded.
    const short = await post(access, `${cookies.staff}; lng=de`, { reason: "because", ticket: "" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Verwenden Sie mindestens 10 Zeichen.");
    expect(await supportActions()).toEqual([]);

    const opened = await post(access, cookies.staff, { reason: REASON, ticket: "ZD-4711" });
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(log);
    // A HEAD answers as the page would but sends none of it: not recorded as a view.
    const head = await fetch(`${server.origin}${log}`, { method: "HEAD", headers: { Cookie: cookies.staff }, redirect: "manual" });
    expect(head.status).toBe(200);
    // Nor does it tell, unrecorded, whether an event id exists.
    const headUnknownEvent = await fetch(`${server.origin}${log}&event=${randomUUID()}`, {
      method: "HEAD",
      headers: { Cookie: cookies.staff },
      redirect: "manual",
    });
    expect(headUnknownEvent.status).toBe(200);
    // React Router runs a data URL's loaders as a GET whatever the method: a HEAD there is refused.
    const headData = await fetch(`${server.origin}/admin/organizations/${ids.acme}/audit-log.data?event=${randomUUID()}`, {
      method: "HEAD",
      headers: { Cookie: cookies.staff },
      redirect: "manual",
    });
    expect([headData.status, headData.headers.get("allow")]).toEqual([405, "GET, POST, OPTIONS"]);
    expect((await supportActions()).map((r) => r.action)).toEqual(["access.opened"]);
    const page = await get(log, cookies.staff);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="support-banner"');
    expect(html).toContain(REASON);
    expect(html).toContain("ZD-4711");
    expect(html).not.toContain("/audit-log/export");

    const event = await prisma.auditEvent.findFirst({ where: { organizationId: ids.acme }, select: { id: true } });
    if (event) expect((await get(`/admin/organizations/${ids.acme}/audit-log?event=${event.id}`, cookies.staff)).status).toBe(200);
    const records = await supportActions();
    expect(records.map((r) => [r.action, r.subject])).toEqual([
      ["access.opened", null],
      ["audit_log.listed", "action=organization.settings_changed"],
      ...(event
        ? [
            ["audit_log.listed", null],
            ["audit_event.viewed", event.id],
          ]
        : []),
    ]);

    // The records page lists them; the tenant's own audit log page shows nothing of it.
    const recordsPage = await (await get(`/admin/support-records?organizationId=${ids.acme}`, cookies.staff)).text();
    expect(recordsPage).toContain(REASON);
    expect(recordsPage).toContain("Opened support access");
    // The filters of a view by their labels, the action by its name.
    expect(recordsPage).toContain("Action: Organization settings changed");
    const tenant = await get("/dashboard/organization-settings/audit-log", cookies.owner);
    expect(tenant.status).toBe(200);
    const tenantHtml = await tenant.text();
    for (const text of [REASON, "ZD-4711", "support-banner", "Sam Staff"]) expect(tenantHtml).not.toContain(text);
  });

  it("never sends anyone off the organization's support pages after stating a reason", async () => {
    for (const redirectTo of ["https://evil.example/", "//evil.example", "/dashboard", `/admin/organizations/${randomUUID()}/audit-log`]) {
      const opened = await post(`/admin/organizations/${ids.acme}/access?redirectTo=${encodeURIComponent(redirectTo)}`, cookies.staff, {
        reason: REASON,
      });
      expect(opened.status, redirectTo).toBe(302);
      expect(opened.headers.get("location"), redirectTo).toBe(`/admin/organizations/${ids.acme}/audit-log`);
    }
  });

  it("answers bad search, filter and cursor values with a translated 400", async () => {
    for (const [path, message] of [
      [`/admin/organizations?q=${"x".repeat(101)}`, "Search for at most 100 characters."],
      ["/admin/organizations?cursor=not-ours", "This page link is not valid. Start the search again."],
      ["/admin/organizations?q=a%00b", "Search for visible text only."],
      ["/admin/support-records?from=2026-02-30", "Dates must be real calendar dates in the form YYYY-MM-DD."],
      ["/admin/support-records?from=2026-03-02&to=2026-03-01", "The start date must not be after the end date."],
      ["/admin/support-records?adminId=nobody", "The admin and organization filters take ids."],
      ["/admin/support-records?cursor=%25%25", "This page link is not valid. Start again from the newest records."],
    ] as const) {
      const response = await get(path, cookies.staff);
      expect(response.status, path).toBe(400);
      const html = await response.text();
      expect(html, path).toContain(message);
      // Shown above the form, which is still there to correct the value.
      expect(html, path).toMatch(/<form[^>]*method="get"/);
    }
    // Wildcards are text: "%" finds nothing rather than everything.
    expect(await (await get("/admin/organizations?q=%25", cookies.staff)).text()).toContain("No organization matches");
    expect(await (await get("/admin/organizations?q=acm", cookies.staff)).text()).toContain(`/admin/organizations/${ids.acme}`);
  });

  it("tells a platform admin without two-factor to enable it, in their language", async () => {
    const response = await get("/admin/organizations", `${cookies.adminWithoutTwoFactor}; lng=de`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Plattform-Administratoren benötigen die Zwei-Faktor-Authentifizierung.");
  });
});

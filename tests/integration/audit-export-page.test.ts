// The audit log export's refusals as a browser sees them (Accept offers text/html, as a followed
// download link sends) and as programs see them (JSON, */*, no Accept), over real HTTP through the
// request edge and the built app: the same status and headers either way, a translated page in the
// app shell (outside it for the 401) with the reason and a link back to the filtered log, and
// today's JSON body for programs. Nothing is recorded for a refusal; a download stays a download.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSession } from "~/auth/session.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { pool, prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { createOrganizationWith, createUser } from "../factories";
import { startInProcessServer, type InProcessServer } from "../app-server";

let server: InProcessServer;

beforeAll(async () => {
  server = await startInProcessServer();
});

afterAll(() => server.close());

beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const AUDIT_LOG = "/dashboard/organization-settings/audit-log";

async function memberOf(options: { role?: Role; plan?: string; organizationId?: string } = {}) {
  const user = await createUser();
  const organizationId =
    options.organizationId ??
    (await createOrganizationWith([{ userId: user.id, role: options.role ?? "owner" }], { planId: options.plan ?? "enterprise" })).id;
  if (options.organizationId) await prisma.membership.create({ data: { organizationId, userId: user.id, role: options.role ?? "owner" } });
  const { token } = await createSession(user.id, { twoFactorVerified: false, activeOrganizationId: organizationId });
  return { organizationId, cookie: `${sessionCookieName()}=${token}` };
}

const exportPath = (organizationId: string, query: string) => `/api/organizations/${organizationId}/audit-log/export?${query}`;

async function get(path: string, headers: Record<string, string>) {
  const response = await fetch(server.origin + path, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The same request as a browser's page and as a program's call. */
async function bothWays(path: string, headers: Record<string, string> = {}) {
  const page = await get(path, { ...headers, Accept: BROWSER_ACCEPT });
  const json = await get(path, { ...headers, Accept: "application/json" });
  return { page, json };
}

const decoded = (html: string) => html.replace(/&amp;/g, "&").replace(/&#x27;/g, "'");

async function exportsRecorded(organizationId: string): Promise<number> {
  const { rows } = await pool().query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1 AND action = 'audit.exported'",
    [organizationId],
  );
  return rows[0]!.n;
}

describe("a refused export opened as a page", () => {
  it("answers 403 (plan) with the same status, a page in the app shell with the reason, billing and the way back, in English and German", async () => {
    const owner = await memberOf({ plan: "team" });
    const path = exportPath(owner.organizationId, "format=csv&action=member.removed&actorId=&from=2026-01-01&lng=de");
    const { page, json } = await bothWays(path, { cookie: owner.cookie });
    expect(json.status).toBe(403);
    expect(JSON.parse(json.text)).toEqual({
      code: "FORBIDDEN",
      message: "Der Tarif Ihrer Organisation enthält keinen Export des Audit-Logs.",
    });
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = decoded(page.text);
    expect(html).toContain('<html lang="de"');
    expect(html).toContain("Der Export konnte nicht starten");
    expect(html).toContain("Der Tarif Ihrer Organisation enthält keinen Export des Audit-Logs.");
    // The app shell is around it: the navigation, the organization switcher.
    expect(html).toContain('aria-label="Hauptnavigation"');
    // Back to the log with the link's filters (the empty and unknown parameters left out).
    expect(html).toContain(`href="${AUDIT_LOG}?action=member.removed&from=2026-01-01"`);
    expect(html).toContain(">Zurück zum Audit-Log<");
    expect(html).toContain('href="/dashboard/organization-settings/billing"');
    const english = await get(exportPath(owner.organizationId, "format=json"), { cookie: owner.cookie, Accept: BROWSER_ACCEPT });
    expect(decoded(english.text)).toContain("Your organization's plan does not include audit log export.");
    expect(english.text).toContain(`href="${AUDIT_LOG}"`);
    expect(english.text).toContain(">Back to the audit log<");
    expect(await exportsRecorded(owner.organizationId)).toBe(0);
  });

  it("answers 401 outside the app shell, with a sign-in link that returns to the filtered log", async () => {
    const owner = await memberOf();
    const { page, json } = await bothWays(exportPath(owner.organizationId, "action=api_key.issued"));
    expect(json.status).toBe(401);
    expect(JSON.parse(json.text)).toEqual({ code: "UNAUTHORIZED", message: "Please sign in to continue." });
    expect(page.status).toBe(401);
    expect(page.text).toContain("Please sign in to continue.");
    expect(page.text).not.toContain('aria-label="Main navigation"');
    expect(decoded(page.text)).toContain(`href="/login?redirectTo=${encodeURIComponent(`${AUDIT_LOG}?action=api_key.issued`)}"`);
  });

  it("answers 400, 404 and 409 as pages with their status, and the link back leaves out what the log cannot show", async () => {
    const owner = await memberOf();
    const bad = await bothWays(exportPath(owner.organizationId, "format=xml&from=2026-03-01&to=2026-02-01&action=Bad!"), {
      cookie: owner.cookie,
    });
    expect([bad.page.status, bad.json.status]).toEqual([400, 400]);
    expect(JSON.parse(bad.json.text)).toEqual({ code: "BAD_REQUEST", message: "The format must be csv or json (NDJSON)." });
    expect(bad.page.text).toContain("The format must be csv or json (NDJSON).");
    expect(bad.page.text).toContain(`href="${AUDIT_LOG}"`);

    const unknown = await bothWays(exportPath("00000000-0000-4000-8000-000000000000", "format=csv"), { cookie: owner.cookie });
    expect([unknown.page.status, unknown.json.status]).toEqual([404, 404]);
    expect(unknown.page.text).toContain("This organization does not exist.");

    await prisma.organization.update({ where: { id: owner.organizationId }, data: { billingState: "past_due_blocked" } });
    const blocked = await bothWays(exportPath(owner.organizationId, "format=csv"), { cookie: owner.cookie });
    expect([blocked.page.status, blocked.json.status]).toEqual([409, 409]);
    expect(decoded(blocked.page.text)).toContain("Audit log export is paused while the organization's billing needs attention.");
    expect(await exportsRecorded(owner.organizationId)).toBe(0);
  });

  it("answers 429 with the same Retry-After and RateLimit headers, and says how long to wait", async () => {
    const owner = await memberOf();
    for (let i = 0; i < 5; i++) {
      const download = await get(exportPath(owner.organizationId, "format=csv"), { cookie: owner.cookie, Accept: BROWSER_ACCEPT });
      // A download stays a download, whatever the browser said it accepts.
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
      expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-log-/);
    }
    const { page, json } = await bothWays(exportPath(owner.organizationId, "format=csv&action=api_key.revoked"), { cookie: owner.cookie });
    for (const answer of [page, json]) {
      expect(answer.status).toBe(429);
      expect(answer.headers.get("ratelimit-policy")).toBe(`"audit.export.user";q=5;w=60`);
      expect(answer.headers.get("ratelimit")).toMatch(/^"audit\.export\.user";r=0;t=\d+$/);
      expect(answer.headers.get("cache-control")).toBe("no-store");
    }
    const wait = Number(page.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(JSON.parse(json.text)).toEqual({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^Too many attempts\. Try again in/),
    });
    const unit = wait === 1 ? "second" : wait < 60 ? "seconds" : "minute";
    expect(page.text).toContain(`Too many attempts. Try again in ${wait < 60 ? wait : 1} ${unit}.`);
    expect(decoded(page.text)).toContain(`href="${AUDIT_LOG}?action=api_key.revoked"`);
    expect(await exportsRecorded(owner.organizationId)).toBe(5);
  });

  it("gives programs JSON: application/json, */*, no Accept, or text/html refused", async () => {
    const member = await memberOf({ role: "member", organizationId: (await memberOf()).organizationId });
    for (const accept of ["application/json", "*/*", undefined, "text/html;q=0, application/json"]) {
      const answer = await get(exportPath(member.organizationId, "format=csv"), {
        cookie: member.cookie,
        ...(accept === undefined ? {} : { Accept: accept }),
      });
      expect(answer.status).toBe(403);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toEqual({ code: "FORBIDDEN", message: "Your role does not allow this." });
    }
    // A member cannot open the log: the page offers the dashboard instead.
    const page = await get(exportPath(member.organizationId, "format=csv"), { cookie: member.cookie, Accept: BROWSER_ACCEPT });
    expect(page.status).toBe(403);
    expect(page.text).toContain(">Go to the dashboard<");
    // Other methods stay a JSON 405, whatever the Accept.
    const post = await fetch(server.origin + exportPath(member.organizationId, "format=csv"), {
      method: "POST",
      headers: { cookie: member.cookie, Accept: BROWSER_ACCEPT, "Sec-Fetch-Site": "same-origin" },
    });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
    expect(post.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

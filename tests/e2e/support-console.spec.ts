// The platform support console against the built app: platform admins sign in with both factors,
// state a reason before reading an organization's audit log, see that reason while they look, and
// find every read in the support records; the support and tenant views of the same log share no
// cached data; a stale session signs in again and comes back; no two-factor, no console.
//
// TOTP codes are single-use per 30 s step and two workers run at once, so only the first test signs
// in as the demo staff account; the others sign up platform admins of their own (tests/e2e/database.ts).
import { randomUUID } from "node:crypto";
import type { Page, Request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ageSessions, grantPlatformAdmin } from "./database";
import {
  createOrganization,
  demo,
  enrolTwoFactor,
  issueAndRevokeViaRpc,
  organizationIdByName,
  rpc,
  signIn,
  signUp,
  submitSignIn,
  totp,
  uniqueEmail,
} from "./helpers";

/** The demo platform admin (prisma/seed.ts); its TOTP secret is published in docs/contract.md. */
const STAFF_EMAIL = "staff@platform.test";
const STAFF_TOTP_SECRET = "KEYLEDGERSTAFFDEMOTOTPSECRETKEYA";
const INVALID_CODE = "That code is not valid. Check your authenticator app and try again.";

/** Fills the second sign-in step and submits it. */
async function enterCode(page: Page, code: string) {
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

/**
 * Signs in as the demo staff with password and TOTP. A code is accepted once: a run a moment ago
 * against the same (reused) server may have spent this step's code, so the next step's (within
 * the accepted drift) is tried second, and after that the next step is awaited.
 */
async function signInAsDemoStaff(page: Page) {
  await submitSignIn(page, STAFF_EMAIL);
  await expect(page).toHaveURL(/\/login\/two-factor\?redirectTo=%2Fdashboard$/);
  for (const attempt of [0, 1, 2]) {
    if (attempt === 2) await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 500);
    await enterCode(page, totp(STAFF_TOTP_SECRET, attempt === 0 ? 0 : 1));
    const signedIn = await page.waitForURL(/\/dashboard$/, { timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (signedIn) return;
    await expect(page.getByRole("alert")).toHaveText(INVALID_CODE);
  }
  throw new Error("The demo staff's TOTP codes were refused");
}

/** A new account with two-factor on, made a platform admin in the database. */
async function signUpPlatformAdmin(page: Page, name: string) {
  const user = await signUp(page, { name, email: uniqueEmail("admin") });
  const { manualKey } = await enrolTwoFactor(page);
  await grantPlatformAdmin(user.email);
  return { ...user, manualKey };
}

const isRpc = (path: string) => (request: Request) => new URL(request.url()).pathname === `/rpc/${path}`;

/** A reason no other test or run states, so the support records can be read by it. */
function uniqueReason(text: string) {
  const token = randomUUID().slice(0, 8);
  return { reason: `${text} (${token})`, ticket: `ZD-${token}` };
}

test("the demo staff signs in with both factors, states a reason, reads Acme's log and finds each read in the support records", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The demo data has no audit events: Acme's admin issues and revokes a key, to have one to open.
  const keyName = `Support check ${randomUUID().slice(0, 8)}`;
  const acmeAdmin = await browser.newContext();
  const acmeAdminPage = await acmeAdmin.newPage();
  await signIn(acmeAdminPage, demo.acmeAdmin);
  const acmeId = await organizationIdByName(acmeAdminPage.request, "Acme");
  await issueAndRevokeViaRpc(acmeAdminPage.request, acmeId, keyName);
  await acmeAdmin.close();

  await signInAsDemoStaff(page);
  await page.getByRole("link", { name: "Platform admin" }).click();
  await expect(page).toHaveURL(/\/admin\/organizations$/);
  await expect(page.getByRole("heading", { name: "Organizations", level: 1 })).toBeVisible();
  await page.getByLabel("Name, slug or id").fill("acme");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/organizations\?q=acme$/);
  const results = page.getByRole("list", { name: "Organizations" }).getByRole("listitem");
  await expect(results.filter({ hasText: "/acme ·" })).toContainText("Enterprise");
  await expect(results.filter({ hasText: "/globex ·" })).toHaveCount(0);
  await page.getByRole("link", { name: "Open: Acme", exact: true }).click();

  // The organization page: plan, billing state, owners with their e-mails, no support banner yet.
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${acmeId}$`));
  await expect(page.getByRole("heading", { name: "Acme", level: 1 })).toBeVisible();
  const overview = page.locator("dl");
  await expect(overview).toContainText("Plan");
  await expect(overview).toContainText("Enterprise");
  await expect(overview).toContainText("Billing state");
  await expect(overview).toContainText("Two-factor authentication required");
  await expect(overview.getByRole("listitem").filter({ hasText: "Olivia Owner" })).toHaveText("Olivia Owner <owner@acme.test>");
  await expect(page.getByTestId("support-banner")).toHaveCount(0);

  // The audit log asks for a reason first, with the cursor in the field.
  await page.getByRole("link", { name: "Open the audit log" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${acmeId}/access\\?redirectTo=`));
  await expect(page.getByRole("heading", { name: "Why do you need to look?" })).toBeVisible();
  const reasonField = page.getByLabel("Reason", { exact: true });
  await expect(reasonField).toBeFocused();
  await reasonField.fill("Checking");
  await page.getByLabel("Ticket (optional)").fill("");
  await page.getByRole("button", { name: "Open the audit log" }).click();
  await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${acmeId}/access\\?redirectTo=`));

  const { reason, ticket } = uniqueReason(`Customer asks who revoked the key "${keyName}"`);
  await reasonField.fill(reason);
  await page.getByLabel("Ticket (optional)").fill(ticket);
  await page.getByRole("button", { name: "Open the audit log" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${acmeId}/audit-log$`));

  const banner = page.getByRole("region", { name: "Support access" });
  await expect(banner).toHaveAttribute("data-testid", "support-banner");
  await expect(banner).toContainText("Support access to Acme");
  await expect(banner.locator("dt")).toHaveText(["Reason:", "Ticket:", "Since:"]);
  await expect(banner.locator("dd")).toHaveText([reason, ticket, /\d{4}/]);
  await expect(banner.locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  // Changing the reason comes back to this page.
  await expect(banner.getByRole("link", { name: "Change reason" })).toHaveAttribute(
    "href",
    `/admin/organizations/${acmeId}/access?redirectTo=${encodeURIComponent(`/admin/organizations/${acmeId}/audit-log`)}`,
  );
  // The same view as the tenant's, without the export.
  await expect(page.getByRole("button", { name: "Apply filters" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);

  // The event's drawer from its row link: details come from the support procedure; Esc closes it.
  const row = page.getByTestId("audit-events").locator("li").filter({ hasText: "API key revoked" }).filter({ hasText: keyName });
  await expect(row).toHaveCount(1);
  const link = row.getByRole("link", { name: /Show details/ });
  const eventId = (await link.getAttribute("id"))!.replace("event-link-", "");
  const detail = page.waitForRequest(isRpc("support/auditLog/detail"));
  await link.click();
  expect((await detail).postDataJSON()).toMatchObject({ json: { organizationId: acmeId, eventId } });
  const drawer = page.getByRole("dialog");
  await expect(drawer).toHaveAccessibleName("API key revoked");
  await expect(drawer).toContainText(keyName);
  await expect(page).toHaveURL(new RegExp(`/audit-log\\?event=${eventId}$`));
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
  await expect(link).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${acmeId}/audit-log$`));

  // Back to the organization (the banner now shows there too), then its support records.
  await page.getByRole("link", { name: "← Acme" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${acmeId}$`));
  await expect(page.getByTestId("support-banner")).toContainText(reason);
  await page.getByRole("link", { name: "Support records for this organization" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/support-records\\?organizationId=${acmeId}$`));
  await expect(page.getByRole("heading", { name: "Support records", level: 1 })).toBeVisible();
  const sections = page.getByRole("navigation", { name: "Support console" });
  await expect(sections.getByRole("link", { name: "Support records" })).toHaveAttribute("aria-current", "page");
  await expect(sections.getByRole("link", { name: "Organizations" })).not.toHaveAttribute("aria-current", "page");
  const table = page.getByRole("table", { name: "Support records" });
  for (const column of ["Time", "Admin", "Organization", "Action", "What", "Reason", "Ticket"]) {
    await expect(table.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
  }
  const mine = table.getByRole("row").filter({ hasText: reason });
  await expect(mine.filter({ hasText: "Opened support access" })).toHaveCount(1);
  await expect(mine.filter({ hasText: "Viewed the audit log" }).first()).toBeVisible();
  const opened = mine.filter({ hasText: "Viewed event details" });
  await expect(opened).toHaveCount(1);
  await expect(opened.getByRole("link", { name: `Event ${eventId.slice(0, 8)}…` })).toHaveAttribute(
    "href",
    `/admin/organizations/${acmeId}/audit-log?event=${eventId}`,
  );
  for (const cells of await mine.all()) {
    await expect(cells).toContainText("Sam Staff");
    await expect(cells).toContainText("Acme");
    await expect(cells).toContainText(ticket);
  }

  // Unknown organizations are 404; a bad filter on a log with access open is a clear 400.
  await sections.getByRole("link", { name: "Organizations" }).click();
  await expect(page).toHaveURL(/\/admin\/organizations$/);
  expect((await page.goto(`/admin/organizations/${randomUUID()}`))?.status()).toBe(404);
  expect((await page.goto(`/admin/organizations/${acmeId}/audit-log?from=2026-02-30`))?.status()).toBe(400);
  await expect(page.getByText("Dates must be real calendar dates in the form YYYY-MM-DD.")).toBeVisible();
});

test("the support console speaks German: reason form, banner and support records", async ({ page }) => {
  test.setTimeout(60_000);
  await signUpPlatformAdmin(page, "Greta Gründlich");
  await page.goto("/admin/organizations?lng=de");
  await expect(page.getByRole("heading", { name: "Organisationen", level: 1 })).toBeVisible();
  await page.getByLabel("Name, Kürzel oder ID").fill("globex");
  await page.getByRole("button", { name: "Suchen", exact: true }).click();
  await page.getByRole("link", { name: "Öffnen: Globex", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Globex", level: 1 })).toBeVisible();
  await expect(page.locator("dl")).toContainText("Tarif");
  await expect(page.locator("dl")).toContainText("Inhaber");
  await page.getByRole("link", { name: "Audit-Log öffnen" }).click();

  await expect(page).toHaveURL(/\/access\?redirectTo=/);
  await expect(page.getByRole("heading", { name: "Warum benötigen Sie Einblick?" })).toBeVisible();
  const reasonField = page.getByLabel("Grund", { exact: true });
  await expect(reasonField).toBeFocused();
  await reasonField.fill("Zu kurz");
  await page.getByRole("button", { name: "Audit-Log öffnen" }).click();
  await expect(page.getByText("Verwenden Sie mindestens 10 Zeichen.")).toBeVisible();
  await expect(page).toHaveURL(/\/access\?redirectTo=/);

  const { reason, ticket } = uniqueReason("Kunde fragt nach einer Schlüsseländerung");
  await reasonField.fill(reason);
  await page.getByLabel("Ticket (optional)").fill(ticket);
  await page.getByRole("button", { name: "Audit-Log öffnen" }).click();
  await expect(page).toHaveURL(/\/admin\/organizations\/[0-9a-f-]{36}\/audit-log$/);
  const banner = page.getByRole("region", { name: "Support-Zugriff" });
  await expect(banner).toContainText("Support-Zugriff auf Globex");
  await expect(banner.locator("dt")).toHaveText(["Grund:", "Ticket:", "Seit:"]);
  await expect(banner.locator("dd")).toHaveText([reason, ticket, /\d{2}\.\d{2}\.\d{4}/]);
  await expect(banner.getByRole("link", { name: "Grund ändern" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Filter anwenden" })).toBeVisible();

  await page.getByRole("link", { name: "← Globex" }).click();
  await page.getByRole("link", { name: "Support-Protokoll dieser Organisation" }).click();
  await expect(page.getByRole("heading", { name: "Support-Protokoll", level: 1 })).toBeVisible();
  const table = page.getByRole("table", { name: "Support-Protokoll" });
  for (const column of ["Zeit", "Administrator", "Organisation", "Aktion", "Was", "Grund", "Ticket"]) {
    await expect(table.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
  }
  const mine = table.getByRole("row").filter({ hasText: reason });
  await expect(mine.filter({ hasText: "Support-Zugriff geöffnet" })).toHaveCount(1);
  await expect(mine.filter({ hasText: "Audit-Log angesehen" }).first()).toContainText("Alle Ereignisse");
  await expect(mine.filter({ hasText: "Greta Gründlich" })).toHaveCount(await mine.count());
  await expect(page.getByLabel("Organisations-ID")).toHaveValue(/^[0-9a-f-]{36}$/);
  await expect(page.getByRole("button", { name: "Anwenden", exact: true })).toBeVisible();
});

test("the support and tenant views of one log load an event's details each through their own procedure, and support's reason stays in support", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const admin = await signUpPlatformAdmin(page, "Owen Overlap");
  const orgName = `Overlap Org ${randomUUID().slice(0, 6)}`;
  await createOrganization(page, orgName);
  const organizationId = await organizationIdByName(page.request, orgName);
  const keyName = `Overlap key ${randomUUID().slice(0, 6)}`;
  const issued = await rpc(page.request, "apiKey/issue", { organizationId, name: keyName, scopes: ["organization:read"] });
  expect(issued.status).toBe(200);

  // Support view of the organization's log (the owner is a platform admin too, but must state a reason).
  const rpcPaths: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/rpc/")) rpcPaths.push(pathname);
  });
  await page.goto(`/admin/organizations/${organizationId}/audit-log`);
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${organizationId}/access\\?redirectTo=`));
  const { reason, ticket } = uniqueReason("Owner reports a key they did not issue");
  await page.getByLabel("Reason", { exact: true }).fill(reason);
  await page.getByLabel("Ticket (optional)").fill(ticket);
  await page.getByRole("button", { name: "Open the audit log" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${organizationId}/audit-log$`));
  await expect(page.getByTestId("support-banner")).toContainText(reason);
  // Hydrated (times are localized then): the row links open the drawer in the page.
  await expect(page.getByTestId("audit-events").locator("time[title]").first()).toBeAttached();

  const row = page.getByTestId("audit-events").locator("li").filter({ hasText: "API key issued" });
  const link = row.getByRole("link", { name: /Show details/ });
  const eventId = (await link.getAttribute("id"))!.replace("event-link-", "");
  const supportDetail = page.waitForRequest(isRpc("support/auditLog/detail"));
  await link.click();
  await supportDetail;
  await expect(page.getByRole("dialog")).toHaveAccessibleName("API key issued");
  await expect(page.getByRole("dialog")).toContainText(keyName);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // Closed, its query is dropped at once: opening the event again asks the server again.
  const again = page.waitForRequest(isRpc("support/auditLog/detail"));
  await link.click();
  await again;
  await expect(page.getByRole("dialog")).toContainText(keyName);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // To the tenant's log through the app's own navigation: a client-side move, same query cache.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/dashboard\/organization-settings\/audit-log$/);
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(page.getByTestId("support-banner")).toHaveCount(0);
  await expect(page.getByText(reason)).toHaveCount(0);
  await expect(page.getByText(ticket)).toHaveCount(0);

  const tenantCalls = rpcPaths.length;
  const tenantDetail = page.waitForRequest(isRpc("auditLog/detail"));
  await page.locator(`#event-link-${eventId}`).click();
  expect((await tenantDetail).postDataJSON()).toMatchObject({ json: { organizationId, eventId } });
  const drawer = page.getByRole("dialog");
  await expect(drawer).toHaveAccessibleName("API key issued");
  await expect(drawer).toContainText(keyName);
  await expect(drawer).toContainText(admin.name);
  await expect(page.getByText(reason)).toHaveCount(0);
  await expect(page.getByTestId("support-banner")).toHaveCount(0);
  expect(rpcPaths.slice(tenantCalls).filter((path) => path.startsWith("/rpc/support/"))).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
});

test("a stale session signs in again with both factors and comes back to the filtered log, the last reason filled in", async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  const admin = await signUpPlatformAdmin(page, "Stella Stale");
  await page.goto("/admin/organizations?q=globex");
  const organizationHref = await page.getByRole("link", { name: "Open: Globex", exact: true }).getAttribute("href");
  expect(organizationHref).toMatch(/^\/admin\/organizations\/[0-9a-f-]{36}$/);
  const logPath = `${organizationHref}/audit-log?action=api_key.issued`;

  await page.goto(logPath);
  await expect(page).toHaveURL(/\/access\?redirectTo=/);
  const { reason, ticket } = uniqueReason("Globex asks about a key issued last week");
  await page.getByLabel("Reason", { exact: true }).fill(reason);
  await page.getByLabel("Ticket (optional)").fill(ticket);
  await page.getByRole("button", { name: "Open the audit log" }).click();
  await expect(page).toHaveURL((url) => url.pathname + url.search === logPath);
  await expect(page.getByTestId("support-banner")).toContainText(reason);
  const sessionBefore = (await context.cookies()).find((c) => c.name === "session")?.value;
  expect(sessionBefore).toBeTruthy();

  // 31 minutes later (in the database): the page asks for the password and second factor again.
  await ageSessions(admin.email, 31);
  await page.goto(logPath);
  await expect(page).toHaveURL((url) => url.pathname === "/login" && url.searchParams.get("redirectTo") === logPath);
  await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  await expect(page.getByText("For your security, sign in again to continue to the page you asked for.")).toBeVisible();
  await expect(page.getByLabel("E-mail address")).toHaveValue(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/login/two-factor" && url.searchParams.get("redirectTo") === logPath);
  // The enrolment spent this step's code; the next step's is newer and within the drift.
  await enterCode(page, totp(admin.manualKey, 1));

  // A new session: support access is opened per session, so the reason page again, prefilled.
  await expect(page).toHaveURL((url) => url.pathname === `${organizationHref}/access` && url.searchParams.get("redirectTo") === logPath);
  const sessionAfter = (await context.cookies()).find((c) => c.name === "session")?.value;
  expect(sessionAfter).toBeTruthy();
  expect(sessionAfter).not.toBe(sessionBefore);
  await expect(page.getByText("Your last reason for this organization is filled in.", { exact: false })).toBeVisible();
  await expect(page.getByLabel("Reason", { exact: true })).toHaveValue(reason);
  await expect(page.getByLabel("Ticket (optional)")).toHaveValue(ticket);
  await page.getByRole("button", { name: "Open the audit log" }).click();
  await expect(page).toHaveURL((url) => url.pathname + url.search === logPath);
  await expect(page.getByTestId("support-banner")).toContainText(reason);
  await expect(page.getByLabel("Action")).toHaveValue("api_key.issued");
});

test("a platform admin without two-factor is told to enable it instead of entering the console", async ({ page }) => {
  const user = await signUp(page, { name: "Nora Nofactor" });
  await grantPlatformAdmin(user.email);
  await page.goto("/dashboard");
  await expect(page.getByRole("link", { name: "Platform admin" })).toBeVisible();
  for (const path of ["/admin/organizations", "/admin/support-records"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(
      page.getByText("Platform administrators need two-factor authentication. Enable it under Security first."),
      path,
    ).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(0);
  }
});

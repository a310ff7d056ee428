// The audit log as owners, members and platform admins see it, against the built app.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { createOrganization, demo, signIn, signUp } from "./helpers";

const AUDIT_PATH = "/dashboard/organization-settings/audit-log";

test("an owner sees settings changes with current names, details on demand, and filters", async ({ page }) => {
  const user = await signUp(page, { name: "Audrey Auditor" });
  await createOrganization(page, `Audit Org ${randomUUID().slice(0, 6)}`);
  await page.goto(AUDIT_PATH);
  const events = page.getByTestId("audit-events").locator("li");
  await expect(events).toHaveCount(1);
  await expect(events.first()).toContainText("Organization created");

  await page.goto("/dashboard/organization-settings");
  await page.getByLabel("Name", { exact: true }).fill("Renamed Org");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();

  await page.goto(AUDIT_PATH);
  await expect(events).toHaveCount(2);
  await expect(events.first()).toContainText("Organization settings changed");
  // Names are resolved at read time: the creation event shows the current name too.
  await expect(events.nth(1)).toContainText("Renamed Org");
  await expect(events.first()).toContainText(user.name);
  await expect(events.first()).toContainText("Renamed Org");

  await events.first().getByRole("link", { name: "Show details" }).click();
  const drawer = page.getByTestId("audit-drawer");
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText("Renamed Org");
  await expect(page).toHaveURL(/event=/);
  await drawer.getByRole("link", { name: "Close" }).last().click();
  await expect(drawer).toBeHidden();

  await page.getByLabel("Action").selectOption("api_key.issued");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=api_key.issued/);
  await expect(page.getByText("No events match these filters.")).toBeVisible();

  // A bad filter is a clear 400 inside the dashboard; the navigation stays usable.
  const response = await page.goto(`${AUDIT_PATH}?from=2026-02-30`);
  expect(response?.status()).toBe(400);
  await expect(page.getByText("Dates must be real calendar dates in the form YYYY-MM-DD.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main navigation" }).first()).toBeVisible();
});

test("the audit log speaks German", async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto(`${AUDIT_PATH}?lng=de`);
  await expect(page.getByRole("heading", { name: "Audit-Protokoll" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Filter anwenden" })).toBeVisible();
});

test("members get 403 and no navigation entry", async ({ page }) => {
  await signIn(page, demo.acmeMember);
  await expect(page.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  const response = await page.goto(AUDIT_PATH);
  expect(response?.status()).toBe(403);
});

test("a platform admin reaches any organization's audit log without membership", async ({ page }) => {
  await signIn(page, "staff@platform.test");
  await page.getByRole("link", { name: "Platform admin" }).first().click();
  await expect(page).toHaveURL(/\/admin\/organizations$/);
  const acme = page.locator("li", { hasText: "Acme" }).first();
  await acme.getByRole("link", { name: /Open/ }).click();
  await expect(page.getByRole("heading", { name: "Acme" })).toBeVisible();
  await page.getByRole("link", { name: "Audit log" }).last().click();
  await expect(page).toHaveURL(/\/admin\/organizations\/[0-9a-f-]+\/audit-log$/);
  await expect(page.getByRole("button", { name: "Apply filters" })).toBeVisible();
  expect((await page.goto(`/admin/organizations/${randomUUID()}`))?.status()).toBe(404);
  expect((await page.goto(`/admin/organizations/${randomUUID()}/audit-log?from=bad`))?.status()).toBeGreaterThanOrEqual(400);
});

test("the admin tree does not exist for anyone but platform admins", async ({ page }) => {
  for (const path of ["/admin", "/admin/", "/admin.data", "/admin/organizations", `/admin/organizations/${randomUUID()}/audit-log`]) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), `signed out: ${path}`).toBe(404);
  }
  await signIn(page, demo.acmeOwner);
  for (const path of ["/admin", "/admin/", "/admin.data", "/admin/organizations"]) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), `owner: ${path}`).toBe(404);
  }
  expect((await page.goto("/admin/organizations"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page).toHaveTitle("Page not found · KeyLedger");
});

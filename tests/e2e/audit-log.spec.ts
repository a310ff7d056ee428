// The audit log as owners, members and platform admins see it, against the built app.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { createOrganization, demo, rpc, signIn, signUp, submitSignIn } from "./helpers";

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

  await events
    .first()
    .getByRole("link", { name: /Show details/ })
    .click();
  const drawer = page.getByRole("dialog");
  await expect(drawer).toBeVisible();
  await expect(drawer).toHaveAccessibleName("Organization settings changed");
  await expect(drawer).toContainText("Renamed Org");
  // The actor's kind is a label before the name, as the target's is; no "(User)" under the address.
  await expect(drawer.getByTestId("audit-drawer-actor")).toHaveText(new RegExp(`^User ${user.name}${user.email.replace(/[.]/g, "\\.")}$`));
  await expect(page).toHaveURL(/event=/);
  await drawer.getByRole("button", { name: "Close" }).click();
  await expect(drawer).toBeHidden();
  await expect(page).not.toHaveURL(/event=/);

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

test("pages forwards and back, opens and closes the drawer from the keyboard, in English and German, and without JavaScript", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const user = await signUp(page, { name: "Paige Pager" });
  const name = `Pager Org ${randomUUID().slice(0, 6)}`;
  await createOrganization(page, name);
  const organizationId = ((await rpc(page.request, "organization/list", {})).json as { id: string; name: string }[]).find(
    (o) => o.name === name,
  )!.id;
  // 55 renames + the creation: three pages of 25 (the default), or two of 50.
  for (let i = 1; i <= 55; i++) {
    expect((await rpc(page.request, "organization/update", { organizationId, name: `${name} ${i}` })).status).toBe(200);
  }
  await page.goto(AUDIT_PATH);
  const events = page.getByTestId("audit-events").locator("li");
  await expect(events).toHaveCount(25);
  await expect(page.getByTestId("audit-activity")).toContainText("56 in all");
  // Today's bar is labelled with its count (one bar per day; every event here is from today).
  await expect(page.getByTestId("audit-activity").locator("rect").last().locator("title")).toHaveText(
    /^[A-Z][a-z]{2} \d{1,2}, \d{4}: 56 events$/,
  );
  const firstId = await events
    .first()
    .getByRole("link", { name: /Show details/ })
    .getAttribute("id");

  // Forwards to the last 6, and back to the same first page.
  await page.getByTestId("audit-next-page").click();
  await expect(events).toHaveCount(25);
  await page.getByTestId("audit-next-page").click();
  await expect(events).toHaveCount(6);
  await expect(events.last()).toContainText("Organization created");
  await expect(page.getByTestId("audit-next-page")).toHaveCount(0);
  await page.getByTestId("audit-prev-page").click();
  await expect(events).toHaveCount(25);
  await page.getByTestId("audit-prev-page").click();
  await expect(events).toHaveCount(25);
  await expect(events.first().getByRole("link", { name: /Show details/ })).toHaveAttribute("id", firstId!);
  await expect(page.getByTestId("audit-prev-page")).toHaveCount(0);

  // 50 per page when asked for, from the newest events on; the pages and the filter form keep the choice.
  const perPage = page.getByTestId("audit-per-page");
  await expect(perPage.locator("[aria-current]")).toHaveText("25");
  await page.getByTestId("audit-next-page").click();
  await perPage.getByRole("link", { name: "50" }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(page).toHaveURL(/perPage=50/);
  await expect(events).toHaveCount(50);
  await page.getByTestId("audit-next-page").click();
  await expect(events).toHaveCount(6);
  await expect(page).toHaveURL(/perPage=50/);
  await page.getByLabel("Action").selectOption("organization.settings_changed");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=organization.settings_changed/);
  await expect(page).toHaveURL(/perPage=50/);
  await expect(events).toHaveCount(50);

  // The drawer from the keyboard: focus moves in, Esc closes it, focus returns to the row's link.
  for (const [lng, label, nameLabel] of [
    ["en", "Organization settings changed", "Name"],
    ["de", "Organisationseinstellungen geändert", "Name"],
  ] as const) {
    await page.goto(`${AUDIT_PATH}?lng=${lng}`);
    const link = events.nth(1).getByRole("link").first();
    await link.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog");
    await expect(dialog).toHaveAccessibleName(label);
    await expect(dialog).toContainText(nameLabel);
    await expect(dialog).toContainText(`${name} 54`);
    await expect.poll(() => dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    await expect(page).toHaveURL(/event=/);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(link).toBeFocused();
    await expect(page).not.toHaveURL(/event=/);
  }

  // A deep link opens the drawer (served by the loader), and closing it keeps the filters.
  const eventId = firstId!.replace("event-link-", "");
  await page.goto(`${AUDIT_PATH}?lng=en&action=organization.settings_changed&event=${eventId}`);
  await expect(page.getByRole("dialog")).toHaveAccessibleName("Organization settings changed");
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await expect(page).toHaveURL(/action=organization.settings_changed/);
  await expect(page).not.toHaveURL(/event=/);

  // Without JavaScript: the same pages, the filter form, and the drawer as a page of its own.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const noJs = await context.newPage();
  await submitSignIn(noJs, user.email, user.password);
  await noJs.goto(AUDIT_PATH);
  const rows = noJs.getByTestId("audit-events").locator("li");
  await expect(rows).toHaveCount(25);
  await noJs.getByTestId("audit-next-page").click();
  await noJs.getByTestId("audit-next-page").click();
  await expect(rows).toHaveCount(6);
  await noJs.getByTestId("audit-prev-page").click();
  await expect(rows).toHaveCount(25);
  // Another page size starts again at the newest events.
  await noJs.getByTestId("audit-per-page").getByRole("link", { name: "100" }).click();
  await expect(rows).toHaveCount(56);
  await expect(noJs.getByTestId("audit-prev-page")).toHaveCount(0);
  await noJs.goto(AUDIT_PATH);
  await expect(rows).toHaveCount(25);
  await rows
    .first()
    .getByRole("link", { name: /Show details/ })
    .click();
  const panel = noJs.getByTestId("audit-drawer");
  await expect(panel).toContainText("Organization settings changed");
  await panel.getByRole("link", { name: "Close" }).last().click();
  await expect(panel).toHaveCount(0);
  await noJs.getByLabel("Action").selectOption("organization.created");
  await noJs.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Organization created");
  await context.close();
});

test("the audit log speaks German", async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto(`${AUDIT_PATH}?lng=de`);
  await expect(page.getByRole("heading", { name: "Audit-Log" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Filter anwenden" })).toBeVisible();
});

test("members get 403 and no navigation entry", async ({ page }) => {
  await signIn(page, demo.acmeMember);
  await expect(page.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  const response = await page.goto(AUDIT_PATH);
  expect(response?.status()).toBe(403);
});

// The platform admin's way in (two factors, a reason, the support records) is in support-console.spec.ts.
test("the admin tree does not exist for anyone but platform admins", async ({ page }) => {
  const organizationId = randomUUID();
  const paths = [
    "/admin",
    "/admin/",
    "/admin.data",
    "/admin/organizations",
    "/admin/organizations?q=acme",
    `/admin/organizations/${organizationId}`,
    `/admin/organizations/${organizationId}/audit-log`,
    `/admin/organizations/${organizationId}/access`,
    `/admin/organizations/${organizationId}/access?redirectTo=%2Fdashboard`,
    "/admin/support-records",
    "/admin/support-records?organizationId=x",
  ];
  // A POST to the reason form is a 404 too, not a 405 or a 403 that would tell the page exists.
  const accessPost = { form: { reason: "Just looking around here", ticket: "" }, maxRedirects: 0 } as const;
  for (const path of paths) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), `signed out: ${path}`).toBe(404);
  }
  expect((await page.request.post(`/admin/organizations/${organizationId}/access`, accessPost)).status(), "signed out: POST").toBe(404);
  await signIn(page, demo.acmeOwner);
  for (const path of paths) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), `owner: ${path}`).toBe(404);
  }
  expect((await page.request.post(`/admin/organizations/${organizationId}/access`, accessPost)).status(), "owner: POST").toBe(404);
  for (const path of ["/admin/organizations", "/admin/support-records", `/admin/organizations/${organizationId}/access`]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page).toHaveTitle("Page not found · KeyLedger");
  }
  await page.goto("/dashboard");
  await expect(page.getByRole("link", { name: "Audit log" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Platform admin" })).toHaveCount(0);
});

// The audit log's filters tell the truth (docs/decisions/0032-audit-filters-and-export-page.md):
// the controls follow the URL across Back and Forward, unknown values are named with a way to drop
// them, no URL carries empty parameters (with and without JavaScript), and "Clear filters".
// Also the list's relative times and column headers, in both languages, on desktop and phone.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { createOrganization, demo, rpc, signIn, signUp, submitSignIn } from "./helpers";

const AUDIT_PATH = "/dashboard/organization-settings/audit-log";
const at = (query: string) => new RegExp(`${AUDIT_PATH.replace(/[/.]/g, "\\$&")}${query.replace(/[?.]/g, "\\$&")}$`);

test("the filters follow the URL across Back and Forward, send no empty parameters, and clear", async ({ page }) => {
  const user = await signUp(page, { name: "Filippa Filter" });
  const name = `Filter Org ${randomUUID().slice(0, 6)}`;
  await createOrganization(page, name);
  const organizationId = ((await rpc(page.request, "organization/list", {})).json as { id: string; name: string }[]).find(
    (o) => o.name === name,
  )!.id;
  expect((await rpc(page.request, "organization/update", { organizationId, name: `${name} 2` })).status).toBe(200);

  await page.goto(AUDIT_PATH);
  const events = page.getByTestId("audit-events").locator("li");
  const action = page.getByLabel("Action");
  const actor = page.getByLabel("Actor");
  const from = page.getByLabel("From (UTC)");
  await expect(events).toHaveCount(2);
  await expect(page.getByTestId("audit-clear-filters")).toHaveCount(0);

  await action.selectOption("organization.created");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(at("?action=organization.created"));
  await expect(events).toHaveCount(1);
  await actor.selectOption({ label: user.name });
  await from.fill("2026-01-01");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\?action=organization\.created&actorId=[0-9a-f-]{36}&from=2026-01-01$/);
  const actorId = new URL(page.url()).searchParams.get("actorId")!;

  // Back: each control shows what that URL applies, not what was chosen last.
  await page.goBack();
  await expect(page).toHaveURL(at("?action=organization.created"));
  await expect(action).toHaveValue("organization.created");
  await expect(actor).toHaveValue("");
  await expect(from).toHaveValue("");
  await page.goBack();
  await expect(page).toHaveURL(at(""));
  await expect(action).toHaveValue("");
  await expect(events).toHaveCount(2);
  // Forward again, twice.
  await page.goForward();
  await expect(action).toHaveValue("organization.created");
  await expect(actor).toHaveValue("");
  await page.goForward();
  await expect(actor).toHaveValue(actorId);
  await expect(from).toHaveValue("2026-01-01");

  // A choice never applied does not outlive a change of filters; Clear filters empties them all.
  await action.selectOption("api_key.issued");
  await page.getByTestId("audit-clear-filters").click();
  await expect(page).toHaveURL(at(""));
  await expect(action).toHaveValue("");
  await expect(actor).toHaveValue("");
  await expect(from).toHaveValue("");
  await expect(page.getByTestId("audit-clear-filters")).toHaveCount(0);
  // Applying the empty form goes to the bare page, not `?action=&actorId=&from=&to=`.
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(at(""));
  await expect(events).toHaveCount(2);
});

test("unknown values are named, in English and German, with a link that drops just that filter", async ({ page }) => {
  await signIn(page, demo.acmeAdmin);
  await page.goto(`${AUDIT_PATH}?lng=en&action=nope&from=2026-01-01`);
  const notes = page.getByTestId("audit-unknown-filters");
  await expect(notes.getByRole("listitem")).toHaveCount(1);
  await expect(notes).toContainText("Unknown action: nope");
  // The select says so too, so Apply keeps what the URL applies and nothing else.
  await expect(page.getByLabel("Action")).toHaveValue("nope");
  await expect(page.getByLabel("Action").locator("option:checked")).toHaveText("Unknown action: nope");
  await expect(page.getByTestId("audit-empty")).toHaveText("No events match these filters.");
  await notes.getByRole("link", { name: "Remove filter (Action)" }).click();
  await expect(page).toHaveURL(at("?from=2026-01-01"));
  await expect(notes).toHaveCount(0);
  await expect(page.getByLabel("Action")).toHaveValue("");

  const missingTarget = randomUUID();
  await page.goto(`${AUDIT_PATH}?lng=de&actorId=xyz&targetId=${missingTarget}`);
  await expect(notes.getByRole("listitem")).toHaveCount(2);
  await expect(notes.getByRole("listitem").first()).toContainText("Unbekannter Akteur: xyz");
  await expect(notes.getByRole("listitem").last()).toContainText(`Unbekanntes Ziel: ${missingTarget}`);
  await expect(page.getByLabel("Akteur")).toHaveValue("xyz");
  await expect(page.getByTestId("audit-target-filter")).toHaveCount(0);
  await notes.getByRole("link", { name: "Filter entfernen (Akteur)" }).click();
  await expect(page).toHaveURL(at(`?targetId=${missingTarget}`));
  await expect(notes.getByRole("listitem")).toHaveCount(1);
  await page.getByRole("link", { name: "Filter zurücksetzen" }).click();
  await expect(page).toHaveURL(at(""));
  await expect(notes).toHaveCount(0);
});

test("without JavaScript the form's address has no empty parameters, and Back shows the URL's filters", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await submitSignIn(page, demo.acmeAdmin);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto(AUDIT_PATH);
  await page.getByLabel("Action").selectOption("organization.created");
  await page.getByRole("button", { name: "Apply filters" }).click();
  // The browser sent `?action=organization.created&actorId=&from=&to=`; the server answered with the clean address.
  await expect(page).toHaveURL(at("?action=organization.created"));
  await expect(page.getByLabel("Action")).toHaveValue("organization.created");
  await page.goBack();
  await expect(page).toHaveURL(at(""));
  await expect(page.getByLabel("Action")).toHaveValue("");
  const response = await page.goto(`${AUDIT_PATH}?action=&actorId=&targetId=&from=&to=&cursor=&perPage=`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(at(""));
  await page.goto(`${AUDIT_PATH}?action=nope&actorId=`);
  await expect(page).toHaveURL(at("?action=nope"));
  await expect(page.getByTestId("audit-unknown-filters")).toContainText("Unknown action: nope");
  await page.getByRole("link", { name: "Remove filter (Action)" }).click();
  await expect(page).toHaveURL(at(""));
  await context.close();
});

test("the list says how long ago, with the exact time on hover and in the drawer, under column headers, in both languages and on a phone", async ({
  page,
}) => {
  await signUp(page, { name: "Tilda Time" });
  await createOrganization(page, `Time Org ${randomUUID().slice(0, 6)}`);
  await page.goto(`${AUDIT_PATH}?lng=en`);
  const row = page.getByTestId("audit-events").locator("li").first();
  const time = row.locator("time");
  await expect(time).toHaveText("now");
  const iso = (await time.getAttribute("datetime"))!;
  await expect(time).toHaveAttribute("title", /\d{1,2}:\d{2}:\d{2}/);

  // The reader's clock three minutes on: the page counts from it once it runs in the browser.
  await page.clock.setFixedTime(Date.parse(iso) + 3 * 60_000 + 5_000);
  await page.reload();
  await expect(time).toHaveText("3 minutes ago");
  await expect(time).toHaveAttribute("title", /\d{1,2}:\d{2}:\d{2}/);
  await row.getByRole("link", { name: /Show details/ }).click();
  const drawerTime = page.getByTestId("audit-drawer-time");
  await expect(drawerTime).toContainText("3 minutes ago");
  await expect(drawerTime.locator("time")).toHaveText(/\d{1,2}:\d{2}:\d{2}/);
  await page.keyboard.press("Escape");

  const columns = page.getByTestId("audit-columns");
  await expect(columns).toBeVisible();
  await expect(columns.locator("span")).toHaveText(["Time", "Action", "Actor", "Target", "Details"]);
  // Each cell names its column for screen readers (and on phones, visibly).
  await expect(row.locator(".audit-label")).toHaveText(["Time", "Action", "Actor", "Target"]);
  // (On wider screens only for them: clipped to one pixel.)
  expect((await row.locator(".audit-label").first().boundingBox())?.width).toBeLessThanOrEqual(1);

  await page.goto(`${AUDIT_PATH}?lng=de`);
  await expect(time).toHaveText("vor 3 Minuten");
  await expect(columns.locator("span")).toHaveText(["Zeit", "Aktion", "Akteur", "Ziel", "Details"]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(columns).toBeHidden();
  await expect(row.locator(".audit-label")).toHaveText(["Zeit", "Aktion", "Akteur", "Ziel"]);
  for (const label of await row.locator(".audit-label").all()) expect((await label.boundingBox())?.width).toBeGreaterThan(20);
});

test("at 1280 px the applied filters stay readable beside 'Filter zurücksetzen' in German", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, demo.acmeAdmin);
  await page.goto(`${AUDIT_PATH}?lng=de&action=invitation.accepted&from=2026-01-01&to=2026-12-31`);
  await expect(page.getByTestId("audit-clear-filters")).toBeVisible();
  // Each select's chosen label fits its box (text width measured in the select's own font), so
  // it reads "Einladung angenommen", not "Einla…"; the date fields keep room for a whole date.
  const select = page.getByLabel("Aktion");
  await expect(select.locator("option:checked")).toHaveText("Einladung angenommen");
  await select.selectOption({ label: "API-Schlüssel ausgestellt" });
  for (const control of [select, page.getByLabel("Akteur")]) {
    const room = await control.evaluate((element: HTMLSelectElement) => {
      const style = getComputedStyle(element);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = style.font;
      const text = context.measureText(element.selectedOptions[0]?.text ?? "").width;
      const inner = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return inner - text;
    });
    expect(room, "room left in the select for its chosen label").toBeGreaterThanOrEqual(0);
  }
  for (const label of ["Von (UTC)", "Bis (UTC)"]) {
    const box = await page.getByLabel(label).boundingBox();
    expect(box!.width, label).toBeGreaterThanOrEqual(150);
  }
});

test("an event that is not in the log answers 404 with a way back to the same filters", async ({ page }) => {
  await signIn(page, demo.acmeOwner);
  const response = await page.goto(`${AUDIT_PATH}?lng=en&action=api_key.rotated&event=${randomUUID()}`);
  expect(response?.status()).toBe(404);
  await page.getByRole("link", { name: "Back to the audit log" }).click();
  await expect(page).toHaveURL(at("?lng=en&action=api_key.rotated"));
  await expect(page.getByTestId("audit-events").locator("li").first()).toBeVisible();
});

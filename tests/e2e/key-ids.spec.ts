// The keys page's ids and focus: "Issue a key" puts focus in the form, each key shows the id that
// apiKey.authenticate answers with a copy button ("Copied" shown and announced; no button without
// JavaScript), "Last used" has a time of day, and a rotation's drawer in the audit log shows the
// listed prefix before and after.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { API_KEYS_PATH, apiKeyRow, authenticateKey, createOrganization, gotoApiKeys, issueApiKeyViaForm, rpc, signUp } from "./helpers";

const AUDIT_LOG_PATH = "/dashboard/organization-settings/audit-log";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("ids, copy, focus, last use and the rotation's prefixes", async ({ page, context, browser }) => {
  await signUp(page, { name: "Ida Identifier" });
  const organizationName = `Ids ${randomUUID().slice(0, 8)}`;
  await createOrganization(page, organizationName);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);

  // "Issue a key" (the empty list's, then the header's) moves focus into the form's first field.
  await gotoApiKeys(page);
  const nameField = page.locator("form#issue-key").getByLabel("Name", { exact: true });
  await page.getByTestId("api-keys-empty").getByRole("link", { name: "Issue a key" }).click();
  await expect(nameField).toBeFocused();
  const secret = await issueApiKeyViaForm(page, { name: "CI", scopes: ["Read members"] });
  await page.getByRole("link", { name: "I have stored the secret" }).click();
  await expect(page.getByTestId("secret-panel")).toHaveCount(0);
  const issueLink = page.getByRole("main").getByRole("link", { name: "Issue a key" }).first();
  await issueLink.focus();
  await page.keyboard.press("Enter");
  await expect(nameField).toBeFocused();
  await page.keyboard.type("typed straight away");
  await expect(nameField).toHaveValue("typed straight away");

  // The key's id, as apiKey.authenticate names it, with a copy button.
  const authenticated = await authenticateKey(page.request, secret, ["member:read"]);
  expect(authenticated.status).toBe(200);
  await page.reload();
  await expect(page.getByTestId("api-keys-page")).toHaveAttribute("data-hydrated", "true");
  const row = apiKeyRow(page, "CI");
  await row.locator("summary").click();
  const keyId = (await row.getByTestId("key-id").textContent())!.trim();
  expect(keyId).toMatch(UUID);
  expect(keyId).toBe(authenticated.json.keyId);
  const copy = row.getByRole("button", { name: "Copy the key ID of CI" });
  await copy.click();
  await expect(row.getByRole("status")).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(keyId);

  // Last used: the day and the time of day (in the reader's zone, stated).
  const lastUsed = row.locator(".key-row-facts > span").filter({ hasText: "Last used" });
  await expect(lastUsed).toContainText(/\d{1,2}:\d{2}/);

  // Rotate; the audit log's drawer names the prefix before and after, in that order.
  const oldPrefix = secret.slice(0, 11);
  await row.getByRole("link", { name: "Rotate: CI" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Rotate key" }).click();
  const rotated = await page.getByTestId("secret-panel").locator("#issued-secret").inputValue();
  const newPrefix = rotated.slice(0, 11);
  expect(newPrefix).not.toBe(oldPrefix);
  const list = await rpc(page.request, "organization/list", {});
  const organization = (list.json as { id: string; name: string }[]).find((o) => o.name === organizationName)!;
  const events = await rpc(page.request, "auditLog/list", { organizationId: organization.id, action: "api_key.rotated" });
  expect(events.status).toBe(200);
  const [event] = events.json.events as { id: string }[];
  await page.goto(`${AUDIT_LOG_PATH}?event=${event!.id}`);
  const drawer = page.getByRole("dialog");
  await expect(drawer).toHaveAccessibleName("API key rotated");
  const prefixRow = drawer
    .locator("div")
    .filter({ has: page.getByText("Prefix", { exact: true }) })
    .last();
  await expect(prefixRow).toContainText(oldPrefix);
  await expect(prefixRow).toContainText(newPrefix);
  const text = (await prefixRow.textContent())!;
  expect(text.indexOf(oldPrefix)).toBeLessThan(text.indexOf(newPrefix));
  // The drawer's ids have copy buttons too.
  await drawer.getByRole("button", { name: "Copy the target ID" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(keyId);

  // The organization's id on the settings page, copyable.
  await page.goto("/dashboard/organization-settings");
  await expect(page.getByTestId("organization-id")).toHaveText(organization.id);
  await page.getByRole("button", { name: "Copy the organization ID" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(organization.id);

  // Without JavaScript the id is there to select; no copy button that could do nothing.
  const noJs = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
  const plain = await noJs.newPage();
  await plain.goto(API_KEYS_PATH);
  const plainRow = apiKeyRow(plain, "CI");
  await plainRow.locator("summary").click();
  await expect(plainRow.getByTestId("key-id")).toHaveText(keyId);
  await expect(plainRow.getByRole("button", { name: /Copy/ })).toHaveCount(0);
  // The header's "Issue a key" is a plain link to the name field: following it focuses the field.
  await plain.getByRole("main").getByRole("link", { name: "Issue a key" }).first().click();
  await expect(plain.locator("form#issue-key").getByLabel("Name", { exact: true })).toBeFocused();
  await noJs.close();
});

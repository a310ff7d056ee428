// Finding keys on the keys page (decision 0059): the filter form with JavaScript (React Router
// navigation, clean URLs, a pasted secret cut to its prefix before it leaves the browser) and
// without it (a plain GET form, in German), the same URL meaning the same filters both ways, the
// history's pages keeping the filters, and keyboard-only use.
import { randomUUID } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  API_KEYS_PATH,
  apiKeyRow,
  authenticateKey,
  createOrganization,
  gotoApiKeys,
  issueAndRevokeViaRpc,
  organizationIdByName,
  revokedKeyRow,
  rpc,
  signUp,
} from "./helpers";

/** The address ends with this path and query, exactly. */
const ending = (pathAndQuery: string) => new RegExp(`^[^?]*://[^/]+${pathAndQuery.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

async function issue(request: APIRequestContext, organizationId: string, name: string, scopes: string[]) {
  const issued = await rpc(request, "apiKey/issue", { organizationId, name, scopes });
  expect(issued.status).toBe(200);
  return issued.json as { key: { id: string; prefix: string }; secret: string };
}

async function organizationWithKeys(page: Page) {
  await signUp(page, { name: "Fiona Finder" });
  const name = `Finds ${randomUUID().slice(0, 8)}`;
  await createOrganization(page, name);
  const organizationId = await organizationIdByName(page.request, name);
  const deploy = await issue(page.request, organizationId, "Deploy bot", ["organization:read"]);
  const billing = await issue(page.request, organizationId, "Billing export", ["billing:view"]);
  await issueAndRevokeViaRpc(page.request, organizationId, "Old deploy");
  return { organizationId, deploy, billing };
}

test("filters and sorts with JavaScript: clean URLs, n of m, clear, and a pasted secret that never reaches the address", async ({
  page,
}) => {
  const { billing } = await organizationWithKeys(page);
  await gotoApiKeys(page);
  const filters = page.getByTestId("key-filters");

  // Keyboard only: into the search, type, Enter submits.
  await filters.getByLabel("Name or prefix").focus();
  await page.keyboard.type("DEPLOY");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(ending(`${API_KEYS_PATH}?q=DEPLOY`));
  await expect(page.getByTestId("key-filters-count")).toHaveText("2 of 3 keys match");
  await expect(apiKeyRow(page, "Deploy bot")).toHaveCount(1);
  await expect(apiKeyRow(page, "Billing export")).toHaveCount(0);
  await expect(revokedKeyRow(page, "Old deploy")).toHaveCount(1);

  await filters.getByLabel("State").selectOption("revoked");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(ending(`${API_KEYS_PATH}?q=DEPLOY&state=revoked`));
  await expect(page.getByTestId("unrevoked-keys")).toHaveCount(0);
  await expect(revokedKeyRow(page, "Old deploy")).toHaveCount(1);
  await expect(page.getByTestId("key-filters-count")).toHaveText("1 of 3 keys matches");

  await filters.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(ending(API_KEYS_PATH));
  await expect(filters.getByLabel("Name or prefix")).toHaveValue("");
  await expect(page.getByTestId("key-filters-count")).toHaveCount(0);

  // Sorted by last use: the key just used comes first.
  expect((await authenticateKey(page.request, billing.secret)).status).toBe(200);
  await filters.getByLabel("Sort by").selectOption("lastUsed");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(ending(`${API_KEYS_PATH}?sort=lastUsed`));
  await expect(page.getByTestId("unrevoked-keys").getByTestId("key-name")).toHaveText(["Billing export", "Deploy bot"]);

  // A pasted whole secret: only its prefix is sent, and the page says so.
  await filters.getByLabel("Name or prefix").fill(billing.secret);
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(ending(`${API_KEYS_PATH}?q=${billing.key.prefix}&sort=lastUsed`));
  await expect(filters.getByLabel("Name or prefix")).toHaveValue(billing.key.prefix);
  await expect(page.getByTestId("key-filters-shortened")).toContainText("That looked like a whole secret.");
  await expect(page.getByTestId("key-filters-shortened").getByRole("link", { name: "Look up a leaked secret" })).toHaveAttribute(
    "href",
    `${API_KEYS_PATH}/lookup`,
  );
  await expect(apiKeyRow(page, "Billing export")).toHaveCount(1);
  await expect(page.getByTestId("key-filters-count")).toHaveText("1 of 3 keys matches");
  expect(await page.content()).not.toContain(billing.secret);

  // Nothing matches: one empty state, and the way back.
  await filters.getByLabel("Name or prefix").fill("no such key");
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("key-filters-no-match")).toBeVisible();
  await expect(page.getByTestId("unrevoked-keys")).toHaveCount(0);
  await page.getByTestId("key-filters-no-match").getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(ending(API_KEYS_PATH));
  await expect(apiKeyRow(page, "Deploy bot")).toHaveCount(1);
});

test("filters without JavaScript, in German, and the URL means the same both ways", async ({ page, browser }) => {
  const { deploy } = await organizationWithKeys(page);
  const context = await browser.newContext({ storageState: await page.context().storageState(), javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto(`${API_KEYS_PATH}?lng=de`);
  const filters = plain.getByTestId("key-filters");
  await filters.getByLabel("Name oder Präfix").fill("deploy");
  await filters.getByLabel("Berechtigung").selectOption("organization:read");
  await filters.getByRole("button", { name: "Anwenden" }).click();
  await expect(plain).toHaveURL(ending(`${API_KEYS_PATH}?q=deploy&scope=organization%3Aread&state=&sort=created`));
  await expect(plain.getByTestId("key-filters-count")).toHaveText("2 von 3 Schlüsseln passen");
  await expect(apiKeyRow(plain, "Deploy bot")).toHaveCount(1);
  await expect(revokedKeyRow(plain, "Old deploy")).toHaveCount(1);

  // The same URL with JavaScript shows the same filters and keys; and the clean URL without it.
  const noJsUrl = plain.url();
  await page.goto(`${noJsUrl}&lng=de`);
  await expect(page.getByTestId("api-keys-page")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("key-filters").getByLabel("Name oder Präfix")).toHaveValue("deploy");
  await expect(page.getByTestId("key-filters").getByLabel("Berechtigung")).toHaveValue("organization:read");
  await expect(page.getByTestId("key-filters-count")).toHaveText("2 von 3 Schlüsseln passen");
  await page.getByTestId("key-filters").getByRole("button", { name: "Anwenden" }).click();
  await expect(page).toHaveURL(ending(`${API_KEYS_PATH}?q=deploy&scope=organization%3Aread`));
  await plain.goto(page.url());
  await expect(filters.getByLabel("Name oder Präfix")).toHaveValue("deploy");
  await expect(plain.getByTestId("key-filters-count")).toHaveText("2 von 3 Schlüsseln passen");

  // The reminder mail's link: ?q=<prefix> finds its key.
  await plain.goto(`${API_KEYS_PATH}?q=${deploy.key.prefix}`);
  await expect(plain.getByTestId("unrevoked-keys").getByTestId("key-name")).toHaveText(["Deploy bot"]);

  // A pasted whole secret without JavaScript: searched by its prefix, said so, not repeated anywhere on the page.
  await filters.getByLabel("Name oder Präfix").fill(deploy.secret);
  await filters.getByRole("button", { name: "Anwenden" }).click();
  await expect(filters.getByLabel("Name oder Präfix")).toHaveValue(deploy.key.prefix);
  await expect(plain.getByTestId("key-filters-shortened")).toContainText("Das sah wie ein vollständiges Geheimnis aus.");
  await expect(apiKeyRow(plain, "Deploy bot")).toHaveCount(1);
  expect(await plain.content()).not.toContain(deploy.secret.slice(deploy.key.prefix.length));

  // A bad value: a translated 400 with the way back.
  const bad = await plain.goto(`${API_KEYS_PATH}?state=weg`);
  expect(bad?.status()).toBe(400);
  await expect(plain.getByText("Filtern Sie nach dem Zustand active, expired oder revoked.")).toBeVisible();
  await context.close();
});

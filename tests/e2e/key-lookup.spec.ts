// The leaked-key lookup in Chromium (issue 33, deliverable 3): from the keys page's header, paste a
// secret, learn which key it is, revoke it in one step, and see it stop working; another
// organization's secret and junk get the same one sentence; the pasted secret is never in the URL
// nor back in the field. With JavaScript and the keyboard in English; without JavaScript in German.
import { randomUUID } from "node:crypto";
import type { BrowserContextOptions, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { API_KEYS_PATH, authenticateKey, createOrganization, gotoApiKeys, organizationIdByName, rpc, signUp } from "./helpers";

const LOOKUP_PATH = "/dashboard/organization-settings/api-keys/lookup";

async function issueViaRpc(page: Page, organizationName: string, name: string) {
  const organizationId = await organizationIdByName(page.request, organizationName);
  const issued = await rpc(page.request, "apiKey/issue", { organizationId, name, scopes: ["member:read"] });
  expect(issued.status).toBe(200);
  return { secret: issued.json.secret as string, keyId: issued.json.key.id as string };
}

/** Pastes `secret` and submits with Enter; the answer replaces the form's value with nothing. */
async function lookUp(page: Page, secret: string, label = "Secret") {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(secret);
  await field.press("Enter");
  await expect(page.getByTestId("lookup-result")).toBeVisible();
  await expect(field).toHaveValue("");
  expect(page.url()).not.toContain(secret.slice(3, 20));
}

test("look up a leaked secret and revoke its key in one step (English, keyboard)", async ({ page }) => {
  await signUp(page, { name: "Lea Leak" });
  const first = `Leak A ${randomUUID().slice(0, 8)}`;
  await createOrganization(page, first);
  const elsewhere = await issueViaRpc(page, first, "Other org key");
  const second = `Leak B ${randomUUID().slice(0, 8)}`;
  await createOrganization(page, second);
  const leaked = await issueViaRpc(page, second, "CI deploy");

  // From the keys page's header.
  await gotoApiKeys(page);
  await page.getByRole("link", { name: "Look up a leaked secret" }).click();
  await expect(page).toHaveURL(LOOKUP_PATH);
  await expect(page.getByRole("heading", { name: "Look up a leaked secret", level: 1 })).toBeVisible();
  await expect(page.getByTestId("key-lookup-page")).toHaveAttribute("data-hydrated", "true");

  // Another organization's key and junk: the same sentence.
  for (const secret of [elsewhere.secret, "sk_not-a-key", `${leaked.secret.slice(0, 30)}\u0007${leaked.secret.slice(30)}`]) {
    await lookUp(page, secret);
    await expect(page.getByTestId("lookup-not-found")).toHaveText("This secret is not a key of this organization.");
    await expect(page.getByTestId("lookup-key")).toHaveCount(0);
  }

  // Too long, refused in the browser: the message, and the last answer no longer shown under it.
  const field = page.getByLabel("Secret", { exact: true });
  await field.fill("x".repeat(201));
  await field.press("Enter");
  await expect(page.getByText("A KeyLedger secret has fewer than 200 characters, so this is not one.")).toBeVisible();
  await expect(page.getByTestId("lookup-result")).toHaveCount(0);

  // The organization's own key, pasted with spaces around it.
  await lookUp(page, `  ${leaked.secret}  `);
  const found = page.getByTestId("lookup-key");
  await expect(page.getByRole("heading", { name: "This secret is the key “CI deploy”" })).toBeVisible();
  await expect(found).toHaveAttribute("data-key-id", leaked.keyId);
  await expect(found.getByTestId("key-state")).toHaveText("Active");
  await expect(found.getByTestId("key-prefix")).toHaveText(`${leaked.secret.slice(0, 11)}…`);
  await expect(found.getByTestId("key-scopes")).toHaveText("Read members");
  await expect(found.getByTestId("key-last-used")).toHaveText("Never used");
  await expect(found.getByRole("link", { name: "History of CI deploy" })).toHaveAttribute(
    "href",
    `/dashboard/organization-settings/audit-log?targetId=${leaked.keyId}`,
  );

  // Revoke in one step, by keyboard: the dialog opens on Enter, Esc returns to the link, then confirm.
  const revoke = found.getByRole("link", { name: "Revoke this key" });
  await revoke.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Revoke key “CI deploy”?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page).toHaveURL(API_KEYS_PATH);
  await expect(page.getByText("Key “CI deploy” revoked.")).toBeVisible();
  expect((await authenticateKey(page.request, leaked.secret)).status).toBe(401);

  // Looked up again: found, revoked, nothing more to do; its history shows the revocation.
  await page.goto(LOOKUP_PATH);
  await lookUp(page, leaked.secret);
  await expect(found.getByTestId("key-state")).toHaveText("Revoked");
  await expect(found.getByRole("link", { name: "Revoke this key" })).toHaveCount(0);
  await found.getByRole("link", { name: "History of CI deploy" }).click();
  await expect(page).toHaveURL(new RegExp(`audit-log\\?targetId=${leaked.keyId}`));
  await expect(page.getByRole("main")).toContainText("API key revoked");
});

test("a second secret can be looked up while the page still reloads after the first (Enter)", async ({ page }) => {
  await signUp(page, { name: "Quick Paste" });
  const organization = `Quick ${randomUUID().slice(0, 8)}`;
  await createOrganization(page, organization);
  const { secret } = await issueViaRpc(page, organization, "Deploy bot");
  await page.goto(LOOKUP_PATH);
  await expect(page.getByTestId("key-lookup-page")).toHaveAttribute("data-hydrated", "true");

  // The page's reload after each answer is held: the answer shows, the reload has not ended. The
  // submit button was disabled through that reload, and Enter in the field then did nothing.
  let releaseReload = () => {};
  const reloadHeld = new Promise<void>((resolve) => (releaseReload = resolve));
  await page.route(/lookup\.data(\?|$)/, async (route) => {
    if (route.request().method() === "GET") await reloadHeld;
    await route.continue();
  });
  await lookUp(page, secret);
  await expect(page.getByTestId("lookup-key")).toHaveAttribute("data-key-id", /.+/);
  const secondPost = page.waitForRequest((request) => request.method() === "POST" && request.url().includes("lookup.data"));
  await lookUp(page, "sk_not-a-key");
  await secondPost;
  await expect(page.getByTestId("lookup-not-found")).toHaveText("This secret is not a key of this organization.");
  releaseReload();
  await expect(page.getByTestId("lookup-key")).toHaveCount(0);
});

test("without JavaScript, in German: look up, confirm on the keys page, revoked", async ({ browser }) => {
  const setup = await browser.newContext();
  const setupPage = await setup.newPage();
  await signUp(setupPage, { name: "Jonas Javascriptlos" });
  const organization = `Leck ${randomUUID().slice(0, 8)}`;
  await createOrganization(setupPage, organization);
  const leaked = await issueViaRpc(setupPage, organization, "Importer");
  const storageState = (await setup.storageState()) as BrowserContextOptions["storageState"];
  await setup.close();

  const context = await browser.newContext({ storageState, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${LOOKUP_PATH}?lng=de`);
  await expect(page.getByRole("heading", { name: "Offengelegtes Geheimnis nachschlagen", level: 1 })).toBeVisible();

  await lookUp(page, "sk_unbekannt", "Geheimnis");
  await expect(page.getByTestId("lookup-not-found")).toHaveText("Dieses Geheimnis ist kein Schlüssel dieser Organisation.");

  // Too long: the translated message, the text not shown again.
  const field = page.getByLabel("Geheimnis", { exact: true });
  await field.fill("x".repeat(500));
  await field.press("Enter");
  await expect(page.getByText("Ein KeyLedger-Geheimnis hat weniger als 200 Zeichen")).toBeVisible();
  await expect(field).toHaveValue("");

  await lookUp(page, leaked.secret, "Geheimnis");
  await expect(page.getByRole("heading", { name: "Dieses Geheimnis ist der Schlüssel „Importer“" })).toBeVisible();
  await expect(page.getByTestId("lookup-key").getByTestId("key-state")).toHaveText("Aktiv");
  await page.getByRole("link", { name: "Diesen Schlüssel widerrufen" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?confirm=revoke&key=${leaked.keyId}$`));
  await page.getByTestId("confirm-panel").getByRole("button", { name: "Schlüssel widerrufen" }).click();
  await expect(page.getByText("Schlüssel „Importer“ widerrufen.")).toBeVisible();
  expect((await authenticateKey(page.request, leaked.secret)).status).toBe(401);
  await context.close();
});

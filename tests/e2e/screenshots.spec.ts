// Screenshots of every page for people to look at (test-results/screens/), English and German,
// desktop and phone. Opt-in so the suite stays fast: SCREENSHOTS=1 npx playwright test screenshots
// It asserts nothing beyond "the page rendered"; it cannot make the suite flaky.
import { randomUUID } from "node:crypto";
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import pg from "pg";
import {
  apiKeyRow,
  authenticateKey,
  createOrganization,
  demo,
  enrolTwoFactor,
  gotoApiKeys,
  organizationIdByName,
  readShownSecret,
  rpc,
  signIn,
  signOut,
  signUp,
  submitSignIn,
} from "./helpers";

test.skip(!process.env.SCREENSHOTS, "set SCREENSHOTS=1 to capture screenshots");

const viewports = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const languages = ["en", "de"] as const;

async function shoot(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}

async function eachVariant(page: Page, fn: (variant: string, lng: string, viewport: keyof typeof viewports) => Promise<void>) {
  for (const lng of languages) {
    for (const viewport of Object.keys(viewports) as (keyof typeof viewports)[]) {
      await page.setViewportSize(viewports[viewport]);
      await fn(`${lng}-${viewport}`, lng, viewport);
    }
  }
}

/** Submits the dashboard's switch form for an id from the page itself, as a browser would. */
async function postSwitch(page: Page, organizationId: string) {
  await page.evaluate((id) => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/dashboard?index";
    for (const [name, value] of [
      ["intent", "switch"],
      ["organizationId", id],
    ]) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name!;
      input.value = value!;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }, organizationId);
  await page.waitForLoadState("load");
}

test("capture screenshots", async ({ page }) => {
  test.setTimeout(180_000);

  await eachVariant(page, async (variant, lng) => {
    await page.goto(`/login?lng=${lng}`);
    await shoot(page, `${variant}-login`);
    await page.getByRole("button").last().click(); // empty submit: validation messages
    await shoot(page, `${variant}-login-errors`);
    await page.goto(`/signup?lng=${lng}`);
    await shoot(page, `${variant}-signup`);
    await page.goto(`/no-such-page?lng=${lng}`);
    await shoot(page, `${variant}-404`);
  });
  await page.goto("/login?lng=en");

  await signIn(page, demo.acmeOwner);
  await eachVariant(page, async (variant, lng, viewport) => {
    await page.goto(`/dashboard?lng=${lng}`);
    await shoot(page, `${variant}-dashboard`);
    if (viewport === "phone") {
      await page.locator("header details summary").first().click();
      await shoot(page, `${variant}-dashboard-menu`);
    }
    await page.locator("header details summary").last().click();
    await shoot(page, `${variant}-dashboard-user-menu`);
    await page.goto(`/dashboard/organization-settings?lng=${lng}`);
    await shoot(page, `${variant}-organization-settings`);
    await page.goto(`/dashboard/organizations/new?lng=${lng}`);
    await shoot(page, `${variant}-organization-new`);
    await page.goto(`/dashboard?lng=${lng}`);
    await postSwitch(page, randomUUID());
    await shoot(page, `${variant}-error-404-organization`);
  });
  await page.goto("/dashboard?lng=en");
  await signOut(page);

  const user = await signUp(page, { name: "Screen Shot" });
  await eachVariant(page, async (variant, lng) => {
    await page.goto(`/dashboard?lng=${lng}`);
    await shoot(page, `${variant}-dashboard-empty`);
    await page.goto(`/dashboard/account/security?lng=${lng}`);
    await shoot(page, `${variant}-security-off`);
    await page.locator("main form button[type=submit]").first().click();
    await page.getByTestId("totp-manual-key").waitFor();
    await shoot(page, `${variant}-security-setup`);
  });
  await page.setViewportSize(viewports.desktop);
  await page.goto("/dashboard/account/security?lng=en");
  await enrolTwoFactor(page);
  await shoot(page, "en-desktop-security-recovery-codes");
  await page.goto("/dashboard/account/security");
  await shoot(page, "en-desktop-security-on");
  await signOut(page);
  await submitSignIn(page, user.email, user.password);
  await eachVariant(page, async (variant, lng) => {
    await page.goto(`/login/two-factor?lng=${lng}`);
    await shoot(page, `${variant}-two-factor`);
  });
  await page.goto("/login/two-factor?lng=en");
});

test("capture API keys screenshots", async ({ page, request }) => {
  test.setTimeout(180_000);
  await signUp(page, { name: "Screen Shot" });
  const suffix = randomUUID().slice(0, 6);
  const emptyName = `Leerlauf ${suffix}`;
  const fullName = `Northwind ${suffix}`;
  await createOrganization(page, emptyName);
  await createOrganization(page, fullName);
  const emptyId = await organizationIdByName(page.request, emptyName);
  const fullId = await organizationIdByName(page.request, fullName);

  // Keys in all three states: active (one used, one with expiry, one with a long German name), expired, revoked.
  const issue = async (name: string, scopes: string[], expiresAt?: string) => {
    const answer = await rpc(page.request, "apiKey/issue", { organizationId: fullId, name, scopes, ...(expiresAt ? { expiresAt } : {}) });
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    const issued = answer.json as { key: { id: string }; secret: string };
    return { id: issued.key.id, secret: issued.secret };
  };
  const nightly = await issue("Nightly report", ["audit:view"], "2099-01-31T23:59:59Z");
  const old = await issue("Legacy CRM integration", ["organization:read", "member:read"]);
  await issue(
    "Buchhaltungsexport für die Steuerberatungskanzlei (Quartalsabschluss)",
    ["billing:view", "audit:view", "organization:read"],
    "2027-06-30T23:59:59Z",
  );
  await issue("Production sync", ["organization:read", "member:read", "invitation:read", "billing:view", "audit:view"]);
  const ci = await issue("CI deploy", ["member:read"]);
  expect((await authenticateKey(request, ci.secret)).status).toBe(200);
  expect((await rpc(page.request, "apiKey/revoke", { organizationId: fullId, keyId: old.id })).status).toBe(200);
  // An expired key cannot be made through the app (expiry must be in the future): age one in the database.
  const db = new pg.Client({
    connectionString: `postgresql://postgres:postgres@127.0.0.1:${process.env.E2E_POSTGRES_PORT ?? "54339"}/keyledger`,
  });
  await db.connect();
  await db.query(
    "UPDATE api_keys SET expires_at = now() - interval '2 days', created_at = now() - interval '60 days' WHERE organization_id = $1 AND id = $2",
    [fullId, nightly.id],
  );
  await db.end();

  const setActive = async (organizationId: string) =>
    expect((await rpc(page.request, "organization/setActive", { organizationId })).status).toBe(200);

  await eachVariant(page, async (variant, lng) => {
    await setActive(emptyId);
    await gotoApiKeys(page, `?lng=${lng}`);
    await shoot(page, `${variant}-api-keys-empty`);
    await setActive(fullId);
    await gotoApiKeys(page, `?lng=${lng}`);
    await shoot(page, `${variant}-api-keys-list`);
    await page.locator("form#issue-key button[type=submit]").click();
    await page.locator("#scopes-error").waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, `${variant}-api-keys-issue-errors`);
    for (const intent of ["rotate", "revoke"] as const) {
      await gotoApiKeys(page);
      await apiKeyRow(page, "CI deploy").locator(`a[href*="confirm=${intent}"]`).click();
      await page.getByRole("dialog").waitFor();
      await page.screenshot({ path: `test-results/screens/${variant}-api-keys-${intent}-dialog.png` });
      await gotoApiKeys(page, `?confirm=${intent}&key=${ci.id}`);
      await shoot(page, `${variant}-api-keys-${intent}-confirm-page`);
    }
  });

  await eachVariant(page, async (variant, lng) => {
    await gotoApiKeys(page, `?lng=${lng}`);
    const name = `Screenshot ${variant}`;
    await page.locator("form#issue-key input[name=name]").fill(name);
    await page.locator("form#issue-key input[type=checkbox]").nth(1).check();
    await page.locator("form#issue-key input[type=checkbox]").nth(4).check();
    await page.locator("form#issue-key button[type=submit]").click();
    await readShownSecret(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, `${variant}-api-keys-secret`);
    const list = await rpc(page.request, "apiKey/list", { organizationId: fullId });
    const issued = (list.json as { id: string; name: string }[]).find((k) => k.name === name)!;
    await rpc(page.request, "apiKey/revoke", { organizationId: fullId, keyId: issued.id });
  });
  await page.setViewportSize(viewports.desktop);
  await gotoApiKeys(page, "?lng=en");
  await apiKeyRow(page, "CI deploy").locator('a[href*="confirm=rotate"]').click();
  await page.getByRole("dialog").getByRole("button", { name: "Rotate key" }).click();
  await readShownSecret(page);
  await shoot(page, "en-desktop-api-keys-rotated-secret");
});

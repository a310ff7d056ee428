// Screenshots of every page for people to look at (test-results/screens/), English and German,
// desktop and phone. Opt-in so the suite stays fast: SCREENSHOTS=1 npx playwright test screenshots
// It asserts nothing beyond "the page rendered"; it cannot make the suite flaky.
import { randomUUID } from "node:crypto";
import { test, type Page } from "@playwright/test";
import { demo, enrolTwoFactor, signIn, signOut, signUp, submitSignIn } from "./helpers";

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
    for (const [name, value] of [["intent", "switch"], ["organizationId", id]]) {
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

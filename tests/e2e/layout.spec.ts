import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { demo, signIn } from "./helpers";

async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow on ${page.url()}`).toBeLessThanOrEqual(0);
}

test.describe("phone layout", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the menu opens, switches pages and closes; no page overflows sideways in German", async ({ page }) => {
    await signIn(page, demo.acmeAdmin);
    const menuButton = page.getByLabel("Open menu");
    const menu = page.getByRole("banner").getByRole("navigation", { name: "Main navigation" });
    await expect(menu).toBeHidden();
    await menuButton.click();
    await expect(menu).toBeVisible();
    await expect(page.getByRole("banner").getByRole("combobox", { name: "Active organization" })).toHaveValue(/.+/);
    await menu.getByRole("link", { name: "Organization settings" }).click();
    await expect(page).toHaveURL(/\/dashboard\/organization-settings$/);
    await expect(menu).toBeHidden();

    // Escape closes it too.
    await menuButton.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();

    for (const path of [
      "/dashboard?lng=de",
      "/dashboard/organization-settings",
      "/dashboard/account/security",
      "/dashboard/organizations/new",
    ]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      await expectNoHorizontalOverflow(page);
    }
    await page.goto("/dashboard/account/security");
    await page.getByRole("button", { name: "Zwei-Faktor-Authentifizierung einrichten" }).click();
    await expect(page.getByTestId("totp-manual-key")).toBeVisible();
    await expectNoHorizontalOverflow(page);
  });
});

test("keyboard users see where the focus is", async ({ page }) => {
  await page.goto("/login");
  await page.keyboard.press("Tab");
  const focused = page.locator(":focus");
  await expect(focused).toHaveText("KeyLedger");
  const outline = await focused.evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe("none");
});

test("keyboard users skip the header and navigation to the page's content", async ({ page }) => {
  await signIn(page, demo.acmeOwner);
  // A fresh document: after the sign-in's client-side navigation, focus may still be wherever the
  // form left it, and the first Tab would start from there.
  await page.goto("/dashboard");
  await page.waitForLoadState("load");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#content")).toBeFocused();
  // The next Tab lands in the page's content, not back in the header.
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.closest("main")?.id)).toBe("content");
});

// The integrator page (/docs/authenticate): reached from the keys page's header, back again, in
// English and German, public (signed out), and usable by keyboard alone: the contents links move to
// their section, a code block scrolls with the arrow keys, a copy button copies the example; text
// keeps WCAG AA contrast in the light and the dark scheme.
import { expect, test } from "./fixtures";
import { belowAA, textContrasts } from "./contrast";
import { createOrganization, gotoApiKeys, signUp } from "./helpers";

const GUIDE_PATH = "/docs/authenticate";

test("reached from the keys page, keyboard usable, in both languages", async ({ page, context }) => {
  await signUp(page, { name: "Ines Integrator" });
  await createOrganization(page, `Guide ${Date.now()}`);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);

  // From the keys page's header, by keyboard.
  await gotoApiKeys(page);
  const guideLink = page.getByRole("main").getByRole("link", { name: "For integrators" });
  await guideLink.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(GUIDE_PATH);
  await expect(page.getByRole("heading", { level: 1, name: "Authenticate API keys" })).toBeVisible();
  await expect(page.getByTestId("integrator-guide")).toHaveAttribute("data-hydrated", "true");

  // The contents: Tab to "Caching", Enter, and the caching section is where the page is.
  const contents = page.getByRole("navigation", { name: "On this page" });
  await contents.getByRole("link", { name: "Caching" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`${GUIDE_PATH}#caching`);
  await expect(page.getByRole("heading", { name: "Caching answers" })).toBeInViewport();

  // The Node example: Tab from its copy button reaches the code, which scrolls sideways with the keys.
  const node = page.locator("#example-node");
  const copy = node.getByRole("button", { name: "Copy the Node.js (fetch) example" });
  await copy.focus();
  await page.keyboard.press("Enter");
  await expect(node.getByRole("status")).toHaveText("Copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`fetch("${new URL(page.url()).origin}/rpc/apiKey/authenticate"`);
  expect(copied).toBe(await node.locator("code").textContent());
  await page.keyboard.press("Tab");
  const code = node.locator("pre");
  await expect(code).toBeFocused();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => code.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The OpenAPI document is one link away.
  await expect(page.getByRole("link", { name: "OpenAPI 3.1 document" })).toHaveAttribute("href", "/api/openapi.json");

  // Back to the keys page.
  await page.getByRole("link", { name: "Back to API keys" }).click();
  await expect(page.getByTestId("api-keys-page")).toBeVisible();

  // German, through the language switch.
  await page.goto(GUIDE_PATH);
  await page.getByRole("link", { name: "Deutsch" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API-Schlüssel prüfen" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Antworten zwischenspeichern" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Auf dieser Seite" })).toBeVisible();
  await gotoApiKeys(page);
  await expect(page.getByRole("main").getByRole("link", { name: "Für Integrationen" })).toBeVisible();
});

test("public: readable signed out, without a way back to a keys page", async ({ page }) => {
  const response = await page.goto(`${GUIDE_PATH}?lng=en`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Authenticate API keys" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to API keys" })).toHaveCount(0);
  for (const status of [200, 400, 401, 403, 405, 413, 415, 503]) await expect(page.getByTestId(`answer-${status}`)).toBeVisible();
});

for (const scheme of ["light", "dark"] as const) {
  test(`${scheme} scheme: every text of the page keeps AA contrast, code included`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${GUIDE_PATH}?lng=de`);
    await expect(page.getByTestId("integrator-guide")).toHaveAttribute("data-hydrated", "true");
    const findings = await textContrasts(page);
    expect(findings.length).toBeGreaterThan(40);
    expect(belowAA(findings)).toEqual([]);
  });
}

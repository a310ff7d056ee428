// How the app looks, measured rather than eyeballed: the German sidebar at 1280 px cuts off no
// label, the "Aktiv" badge never breaks inside its word on a phone, text keeps WCAG AA contrast in
// the system's light and dark schemes, and tab titles name the page, the organization and the product.
import { randomUUID } from "node:crypto";
import { type Page } from "@playwright/test";
import { belowAA, textContrasts } from "./contrast";
import { expect, test } from "./fixtures";
import { createOrganization, demo, organizationIdByName, rpc, signIn, signUp } from "./helpers";

const ORGANIZATION_PAGES = [
  "/dashboard",
  "/dashboard/organization-settings",
  "/dashboard/organization-settings/members",
  "/dashboard/organization-settings/api-keys",
  "/dashboard/organization-settings/audit-log",
  "/dashboard/organization-settings/billing",
];

test.describe("German sidebar at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("no navigation label is cut off or ellipsized, on every page", async ({ page }) => {
    await signIn(page, demo.acmeOwner);
    for (const path of [...ORGANIZATION_PAGES, "/dashboard/account", "/dashboard/account/security"]) {
      await page.goto(`${path}?lng=de`);
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
      const sidebar = page.locator("aside").getByRole("navigation", { name: "Hauptnavigation" });
      await expect(sidebar.getByRole("link", { name: "Organisationseinstellungen" })).toBeVisible();
      const labels = await sidebar.locator("a > span:last-child").evaluateAll((spans) =>
        spans.map((span) => ({
          text: span.textContent,
          overflows: span.scrollWidth > span.clientWidth,
          linkOverflows: span.parentElement!.scrollWidth > span.parentElement!.clientWidth,
          ellipsis: getComputedStyle(span).textOverflow === "ellipsis",
          clipped: getComputedStyle(span).overflow === "hidden" && span.scrollWidth > span.clientWidth,
        })),
      );
      expect(labels.length, path).toBeGreaterThanOrEqual(6);
      for (const label of labels)
        expect(label, `${path}: ${label.text}`).toMatchObject({ overflows: false, linkOverflows: false, ellipsis: false, clipped: false });
    }
  });
});

test.describe("phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the 'Aktiv' badge beside a long organization name stays one line, never broken inside the word", async ({ page }) => {
    await signUp(page, { name: "Berta Badge" });
    const name = `Internationale Gesellschaft für Schlüsselverwaltung und Protokollierung ${randomUUID().slice(0, 6)}`;
    await createOrganization(page, name);
    await page.goto("/dashboard?lng=de");
    const badge = page.getByText("Aktiv", { exact: true });
    await expect(badge).toBeVisible();
    const measured = await badge.evaluate((element) => {
      const style = getComputedStyle(element);
      const range = document.createRange();
      range.selectNodeContents(element);
      return {
        lines: range.getClientRects().length,
        height: element.getBoundingClientRect().height,
        lineHeight: parseFloat(style.lineHeight),
        paddingY: parseFloat(style.paddingTop) + parseFloat(style.paddingBottom),
        overflowWrap: style.overflowWrap,
        overflows: element.scrollWidth > element.clientWidth,
      };
    });
    expect(measured.lines).toBe(1);
    expect(measured.height).toBeLessThanOrEqual(measured.lineHeight + measured.paddingY + 1);
    expect(measured.overflowWrap).not.toBe("anywhere");
    expect(measured.overflows).toBe(false);
    // The long name gives way instead (it is truncated with its full text kept), and nothing overflows the page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

/** Every visible text's contrast on the page, with what fell below AA in the message. */
async function expectReadable(page: Page, label: string, atLeast = 6) {
  const findings = await textContrasts(page);
  expect(findings.length, `${label}: texts measured`).toBeGreaterThanOrEqual(atLeast);
  expect(belowAA(findings), `${label}: text below WCAG AA`).toEqual([]);
}

for (const scheme of ["dark", "light"] as const) {
  test(`${scheme} scheme: text keeps AA contrast on the dashboard pages, dialogs and error pages`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await signIn(page, demo.acmeOwner);
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The scheme is in force: a dark page in dark mode, a light one in light mode.
    const brightness = await page.evaluate((css) => {
      const canvas = document.createElement("canvas");
      const context = canvas.getContext("2d")!;
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return (r! + g! + b!) / 3;
    }, background);
    if (scheme === "dark") expect(brightness).toBeLessThan(40);
    else expect(brightness).toBeGreaterThan(215);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toContain(scheme);

    for (const path of [...ORGANIZATION_PAGES, "/dashboard/account", "/dashboard/account/security"]) {
      for (const lng of ["en", "de"]) {
        await page.goto(`${path}?lng=${lng}`);
        await expectReadable(page, `${scheme} ${path} ${lng}`);
      }
    }
    // A confirmation dialog (cancel the subscription) and an error page.
    await page.goto("/dashboard/organization-settings/billing?lng=en");
    await expect(page.getByTestId("billing-page")).toHaveAttribute("data-hydrated", "true");
    await page.getByRole("link", { name: "Cancel subscription" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    // The page behind the modal is hidden from everyone (aria-hidden): only the dialog's texts count.
    await expectReadable(page, `${scheme} dialog`, 3);
    await page.keyboard.press("Escape");
    await page.goto("/dashboard/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expectReadable(page, `${scheme} 404`);
    await page.goto("/login");
  });
}

for (const scheme of ["dark", "light"] as const) {
  test(`${scheme} scheme: keys, audit rows and the event drawer keep AA contrast`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await signUp(page, { name: "Cora Contrast" });
    const organizationName = `Contrast ${randomUUID().slice(0, 8)}`;
    await createOrganization(page, organizationName);
    const organizationId = await organizationIdByName(page.request, organizationName);
    const issued = await rpc(page.request, "apiKey/issue", { organizationId, name: "Deploy", scopes: ["member:read", "audit:view"] });
    expect(issued.status).toBe(200);
    expect((await rpc(page.request, "apiKey/rotate", { organizationId, keyId: issued.json.key.id })).status).toBe(200);
    const revoked = await rpc(page.request, "apiKey/issue", { organizationId, name: "Old", scopes: ["member:read"] });
    expect((await rpc(page.request, "apiKey/revoke", { organizationId, keyId: revoked.json.key.id })).status).toBe(200);

    await page.goto("/dashboard/organization-settings/api-keys");
    await page.locator("[data-key-id] summary").first().click();
    await expectReadable(page, `${scheme} keys`);
    await page.goto("/dashboard/organization-settings/audit-log");
    await expectReadable(page, `${scheme} audit log`);
    const events = await rpc(page.request, "auditLog/list", { organizationId, action: "api_key.rotated" });
    await page.goto(`/dashboard/organization-settings/audit-log?event=${events.json.events[0].id}`);
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectReadable(page, `${scheme} drawer`, 3);
    await context.close();
  });
}

test("tab titles name the page, the active organization and the product", async ({ page }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Sign in · KeyLedger");
  await signIn(page, demo.acmeOwner);
  await expect(page).toHaveTitle("Dashboard · Acme · KeyLedger");
  const titles: Record<string, string> = {
    "/dashboard/organization-settings": "Organization settings · Acme · KeyLedger",
    "/dashboard/organization-settings/members": "Members · Acme · KeyLedger",
    "/dashboard/organization-settings/api-keys": "API keys · Acme · KeyLedger",
    "/dashboard/organization-settings/audit-log": "Audit log · Acme · KeyLedger",
    "/dashboard/organization-settings/billing": "Billing · Acme · KeyLedger",
    // The person's own pages belong to no organization.
    "/dashboard/account": "Account · KeyLedger",
  };
  for (const [path, title] of Object.entries(titles)) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
  // German, and after a client-side navigation too.
  await page.goto("/dashboard/organization-settings?lng=de");
  await expect(page).toHaveTitle("Organisationseinstellungen · Acme · KeyLedger");
  await page.locator("aside").getByRole("link", { name: "API-Schlüssel" }).click();
  await expect(page).toHaveTitle("API-Schlüssel · Acme · KeyLedger");
});

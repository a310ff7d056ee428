// A refused export in the browser (docs/decisions/0032-audit-filters-and-export-page.md): following
// the download link when the export is refused shows a translated page inside the app shell, with
// the refusal's status, the reason (for a 429 how long to wait, as Retry-After says) and a link
// back to the filtered log, instead of a bare JSON page. Programs keep getting JSON
// (audit-export.spec.ts, tests/integration/audit-export-page.test.ts).
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createOrganization, demo, rpc, signIn, signUp } from "./helpers";

const AUDIT_PATH = "/dashboard/organization-settings/audit-log";

async function organizationIdOf(page: Page, slugOrName: string): Promise<string> {
  const list = (await rpc(page.request, "organization/list", {})).json as { id: string; name: string; slug: string }[];
  return list.find((o) => o.slug === slugOrName || o.name === slugOrName)!.id;
}

test("a plan without export: the page says why inside the app shell, in English and German, and leads back to the filtered log", async ({
  page,
}) => {
  await signIn(page, demo.globexOwner);
  const globex = await organizationIdOf(page, "globex");
  const exportUrl = `/api/organizations/${globex}/audit-log/export?format=csv&action=organization.created`;
  const response = await page.goto(`${exportUrl}&lng=en`);
  expect(response?.status()).toBe(403);
  await expect(page).toHaveTitle("The export could not start · KeyLedger");
  const refusal = page.getByTestId("export-refusal");
  await expect(refusal.getByRole("heading", { name: "The export could not start" })).toBeVisible();
  await expect(refusal).toContainText("Error 403");
  await expect(page.getByTestId("export-refusal-message")).toHaveText("Your organization's plan does not include audit log export.");
  await expect(page.getByRole("navigation", { name: "Main navigation" }).first()).toBeVisible();
  await expect(refusal.getByRole("link", { name: "Go to Billing" })).toHaveAttribute("href", "/dashboard/organization-settings/billing");

  const german = await page.goto(`${exportUrl}&lng=de`);
  expect(german?.status()).toBe(403);
  await expect(refusal.getByRole("heading", { name: "Der Export konnte nicht starten" })).toBeVisible();
  await expect(page.getByTestId("export-refusal-message")).toHaveText("Der Tarif Ihrer Organisation enthält keinen Export des Audit-Logs.");
  await expect(refusal.getByRole("link", { name: "Zur Abrechnung" })).toBeVisible();
  await refusal.getByRole("link", { name: "Zurück zum Audit-Log" }).click();
  await expect(page).toHaveURL(new RegExp(`${AUDIT_PATH}\\?action=organization\\.created$`));
  await expect(page.getByLabel("Aktion")).toHaveValue("organization.created");
});

test("too many exports: the link opens a 429 page that says how long to wait, with Retry-After, in English and German", async ({
  page,
}) => {
  await signUp(page, { name: "Rita Ratelimit" });
  const name = `Busy Org ${randomUUID().slice(0, 6)}`;
  await createOrganization(page, name);
  const organizationId = await organizationIdOf(page, name);
  expect((await rpc(page.request, "billing/checkout", { organizationId, planId: "enterprise" })).status).toBe(200);
  // Five downloads in a minute are what a user may have.
  for (let i = 0; i < 5; i++) {
    expect((await page.request.get(`/api/organizations/${organizationId}/audit-log/export?format=csv`)).status()).toBe(200);
  }

  await page.goto(`${AUDIT_PATH}?lng=en&action=audit.exported`);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.url().includes("/audit-log/export")),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(answer.status()).toBe(429);
  const wait = Number(await answer.headerValue("retry-after"));
  expect(wait).toBeGreaterThan(0);
  expect(await answer.headerValue("ratelimit")).toMatch(/^"audit\.export\.user";r=0;t=\d+$/);
  await expect(page).toHaveURL(/\/audit-log\/export\?action=audit\.exported&format=csv$/);
  const message = page.getByTestId("export-refusal-message");
  await expect(message).toHaveText(
    wait < 60 ? `Too many attempts. Try again in ${wait} second${wait === 1 ? "" : "s"}.` : "Too many attempts. Try again in 1 minute.",
  );
  await expect(page.getByTestId("export-refusal")).toContainText("Error 429");
  await page.getByTestId("export-refusal-back").click();
  await expect(page).toHaveURL(new RegExp(`${AUDIT_PATH}\\?action=audit\\.exported$`));
  await expect(page.getByLabel("Action")).toHaveValue("audit.exported");

  const german = await page.goto(`/api/organizations/${organizationId}/audit-log/export?format=json&lng=de`);
  expect(german?.status()).toBe(429);
  const germanWait = Number(await german!.headerValue("retry-after"));
  await expect(message).toHaveText(
    germanWait < 60
      ? `Zu viele Versuche. Versuchen Sie es in ${germanWait} Sekunde${germanWait === 1 ? "" : "n"} erneut.`
      : "Zu viele Versuche. Versuchen Sie es in 1 Minute erneut.",
  );
  await expect(page.getByTestId("export-refusal-back")).toHaveText("Zurück zum Audit-Log");
  // Keyboard: the way back is reachable and works from the keyboard alone.
  await page.getByTestId("export-refusal-back").focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${AUDIT_PATH}$`));
});

// Billing end to end against the built app on the embedded database (so the development provider
// is active), in English and in German: a new owner changes the plan on the billing page through
// the confirm dialog with the keyboard only (focus moves in, Esc closes it and gives the focus
// back, Enter confirms), sees the new plan and state; two payment_failed events posted to the
// provider endpoint pause billing, the page says so, and the audit log page explains why export is
// paused and links back to billing. Each test signs up its own owner and organization.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { createOrganization, organizationIdByName, signUp } from "./helpers";

const BILLING_PATH = "/dashboard/organization-settings/billing";

/** What the pages say, copied from app/i18n/locales/{en,de}/{billing,audit}.ts. */
const TEXT = {
  en: {
    heading: "Billing",
    switchToEnterprise: "Switch to Enterprise",
    dialogTitle: "Switch to the Enterprise plan?",
    confirm: "Switch plan",
    done: "The organization is now on the Enterprise plan.",
    active: "Active",
    blocked: "Payment overdue, paused",
    blockedExplanation: "Two payments failed in a row.",
    exportPaused: "Export is paused while the organization's billing needs attention.",
    billingLink: "Go to Billing",
    auditEvent: "Plan changed",
    stateEvent: "Billing state changed",
  },
  de: {
    heading: "Abrechnung",
    switchToEnterprise: "Zu Enterprise wechseln",
    dialogTitle: "Zum Tarif Enterprise wechseln?",
    confirm: "Tarif wechseln",
    done: "Die Organisation hat jetzt den Tarif Enterprise.",
    active: "Aktiv",
    blocked: "Zahlung überfällig, ausgesetzt",
    blockedExplanation: "Zwei Zahlungen nacheinander sind fehlgeschlagen.",
    exportPaused: "Der Export ist ausgesetzt, solange die Abrechnung der Organisation offen ist.",
    billingLink: "Zur Abrechnung",
    auditEvent: "Tarif geändert",
    stateEvent: "Abrechnungsstatus geändert",
  },
} as const;

for (const language of ["en", "de"] as const) {
  test(`an owner changes the plan with the keyboard, and a blocked payment pauses export (${language})`, async ({
    page,
    context,
    baseURL,
  }) => {
    const text = TEXT[language];
    await signUp(page);
    const name = `Billing ${language} ${randomUUID().slice(0, 6)}`;
    await createOrganization(page, name);
    const organizationId = await organizationIdByName(page.request, name);
    if (language === "de") await context.addCookies([{ name: "lng", value: "de", url: baseURL! }]);

    await page.goto(BILLING_PATH);
    await expect(page.getByRole("heading", { level: 1, name: text.heading })).toBeVisible();
    await expect(page.getByTestId("billing-page")).toHaveAttribute("data-hydrated", "true");
    await expect(page.getByTestId("billing-summary")).toHaveAttribute("data-state", "active");
    await expect(page.locator('[data-plan="enterprise"] [data-feature="auditExport"]')).toHaveAttribute("data-included", "true");
    await expect(page.locator('[data-plan="free"] [data-feature="auditExport"]')).toHaveAttribute("data-included", "false");

    // Keyboard only: focus the trigger, open, Esc closes and returns the focus, open again, confirm.
    const trigger = page.getByRole("link", { name: text.switchToEnterprise });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: text.dialogTitle });
    await expect(dialog).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole("button", { name: text.confirm });
    await confirm.focus();
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL(/\?done=checkout$/);
    await expect(page.getByText(text.done)).toBeVisible();
    await expect(page.getByTestId("billing-summary")).toContainText("Enterprise");
    await expect(page.getByTestId("billing-summary")).toContainText(text.active);

    // Two failed payments from the (development) provider: the state is blocked.
    for (let i = 0; i < 2; i++) {
      const response = await page.request.post("/api/billing/provider-events", {
        headers: { "content-type": "application/json" },
        data: JSON.stringify({ id: `evt_${randomUUID()}`, type: "payment_failed", organizationId }),
      });
      expect(response.status()).toBe(200);
    }
    await page.reload();
    await expect(page.getByTestId("billing-summary")).toHaveAttribute("data-state", "past_due_blocked");
    await expect(page.getByTestId("billing-summary")).toContainText(text.blocked);
    await expect(page.getByText(text.blockedExplanation)).toBeVisible();

    // The audit log: the plan change is there, export is paused and links back to billing.
    await page.goto("/dashboard/organization-settings/audit-log");
    const events = page.getByRole("listitem");
    await expect(events.filter({ hasText: text.auditEvent })).toHaveCount(1);
    await expect(events.filter({ hasText: text.stateEvent })).toHaveCount(2);
    await expect(page.getByTestId("audit-export-unavailable")).toContainText(text.exportPaused);
    await page.getByTestId("audit-export-billing-link").click();
    await expect(page).toHaveURL(new RegExp(`${BILLING_PATH}$`));
    await expect(page.getByRole("heading", { level: 1, name: text.heading })).toBeVisible();
  });
}

test("fits a phone: the billing page has no horizontal scroll at 375px", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await signUp(page);
  await createOrganization(page, `Billing phone ${randomUUID().slice(0, 6)}`);
  await page.goto(BILLING_PATH);
  await expect(page.getByTestId("billing-plans")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

// Changing an organization's plan from the support console (platform admins): choose the plan,
// state a reason, confirm; the organization shows the new plan, the support records the reason,
// the organization's audit log the change by "System". Keyboard only where it matters, English
// and German, with screenshots (test-results/screens/support-plan-*.png) to look at.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { grantPlatformAdmin } from "./database";
import { createOrganization, enrolTwoFactor, organizationIdByName, signUp, uniqueEmail } from "./helpers";

/** A new platform admin (two-factor on, signed in just now) who owns a new Free organization. */
async function adminWithOrganization(page: Page, name: string) {
  const user = await signUp(page, { name, email: uniqueEmail("plan-admin") });
  await enrolTwoFactor(page);
  await grantPlatformAdmin(user.email);
  const organization = `Plan Org ${randomUUID().slice(0, 6)}`;
  await createOrganization(page, organization);
  return { organization, organizationId: await organizationIdByName(page.request, organization) };
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/support-plan-${name}.png`, fullPage: true });
}

test("a platform admin puts an organization on Enterprise with a reason, after a confirmation, keyboard only at the end", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { organization, organizationId } = await adminWithOrganization(page, "Petra Plan");
  await page.goto(`/admin/organizations/${organizationId}`);
  await page.getByRole("link", { name: "Change the plan" }).click();
  await expect(page.getByRole("heading", { name: "Change the plan", level: 1 })).toBeVisible();
  await expect(page.getByRole("radio", { name: /^Free \(current plan\)/ })).toBeDisabled();

  // Nothing chosen: both mistakes are named, nothing changes.
  await page.getByRole("button", { name: "Review the change" }).click();
  await expect(page.getByText("Choose the new plan.")).toBeVisible();
  await expect(page.getByText("This field is required.")).toBeVisible();

  await page.getByRole("radio", { name: /^Enterprise/ }).check();
  const reason = `Self-hosted customer bought Enterprise (${randomUUID().slice(0, 8)})`;
  await page.getByLabel("Reason", { exact: true }).fill(reason);
  await page.getByLabel("Ticket (optional)").fill("ZD-4711");
  await page.getByRole("button", { name: "Review the change" }).click();

  // The confirmation takes the focus; "Back" returns to the filled-in form.
  const question = page.getByRole("heading", { name: `Change ${organization}’s plan?` });
  await expect(question).toBeFocused();
  await expect(page.getByText("From Free to Enterprise.", { exact: false })).toBeVisible();
  await page.getByRole("button", { name: "Back" }).click();
  await expect(page.getByLabel("Reason", { exact: true })).toHaveValue(reason);
  await expect(page.getByRole("radio", { name: /^Enterprise/ })).toBeChecked();
  await page.getByRole("button", { name: "Review the change" }).click();
  await expect(question).toBeFocused();

  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Change the plan" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/admin/organizations/${organizationId}\\?planChanged=1$`));
  await expect(page.getByRole("status")).toHaveText(`${organization} is now on Enterprise.`);
  await expect(page.locator("dl")).toContainText("Enterprise");

  await page.goto(`/admin/support-records?organizationId=${organizationId}`);
  const record = page.getByRole("row").filter({ hasText: reason });
  await expect(record).toContainText("Changed the plan");
  await expect(record).toContainText("Free → Enterprise");
  await expect(record).toContainText("ZD-4711");

  // The organization's own audit log: the change, by System, without the reason.
  await page.goto("/dashboard/organization-settings/audit-log");
  await page.getByRole("link", { name: "Show details : Plan changed" }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer).toContainText("System");
  await expect(drawer).toContainText("Enterprise");
  await expect(page.getByText(reason)).toHaveCount(0);
});

test("in German, on desktop and phone (screenshots)", async ({ page }) => {
  test.setTimeout(90_000);
  const { organization, organizationId } = await adminWithOrganization(page, "Greta Tarif");
  for (const [viewport, size] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    for (const lng of ["en", "de"] as const) {
      await page.goto(`/admin/organizations/${organizationId}/plan?lng=${lng}`);
      await shoot(page, `${lng}-${viewport}-form`);
    }
  }
  await page.goto(`/admin/organizations/${organizationId}/plan?lng=de`);
  await expect(page.getByRole("heading", { name: "Tarif ändern", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Änderung prüfen" }).click();
  await expect(page.getByText("Wählen Sie den neuen Tarif.")).toBeVisible();
  await shoot(page, "de-phone-errors");
  await page.getByRole("radio", { name: /^Team/ }).check();
  await page.getByLabel("Grund", { exact: true }).fill("Kunde hat Team gebucht, Rechnung liegt vor");
  await page.getByRole("button", { name: "Änderung prüfen" }).click();
  await expect(page.getByRole("heading", { name: `Tarif von ${organization} ändern?` })).toBeFocused();
  await shoot(page, "de-phone-confirm");
  await page.setViewportSize({ width: 1280, height: 800 });
  await shoot(page, "de-desktop-confirm");
  await page.getByRole("button", { name: "Tarif ändern" }).click();
  await expect(page.getByRole("status")).toHaveText(`${organization} hat jetzt den Tarif Team.`);
  await shoot(page, "de-desktop-done");
});

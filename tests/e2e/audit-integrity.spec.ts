// The audit log's integrity page in Chromium (issue 34, deliverable 2): from the audit log, see the
// log sealed, verify it (intact), then, after an event is altered behind the app's back as the
// database owner, verify again and find that event named with a link to it. With JavaScript and
// the keyboard in English; without JavaScript in German.
import { randomUUID } from "node:crypto";
import type { BrowserContextOptions } from "@playwright/test";
import { alterOneEvent, sealE2eOrganization } from "./audit-sealing";
import { expect, test } from "./fixtures";
import { createOrganization, organizationIdByName, rpc, signUp } from "./helpers";

const INTEGRITY_PATH = "/dashboard/organization-settings/audit-log/integrity";

test("verify the audit log: intact, then the altered event named (English, keyboard)", async ({ page }) => {
  await signUp(page, { name: "Ida Integrity" });
  const organization = `Sealed ${randomUUID().slice(0, 8)}`;
  await createOrganization(page, organization);
  const organizationId = await organizationIdByName(page.request, organization);
  expect((await rpc(page.request, "apiKey/issue", { organizationId, name: "Nightly export", scopes: ["member:read"] })).status).toBe(200);
  await sealE2eOrganization(organizationId);

  await page.goto("/dashboard/organization-settings/audit-log");
  await page.getByRole("link", { name: "Verify integrity" }).click();
  await expect(page).toHaveURL(INTEGRITY_PATH);
  await expect(page.getByRole("heading", { name: "Audit log integrity", level: 1 })).toBeVisible();
  await expect(page.getByTestId("sealing-card")).toHaveAttribute("data-state", "sealed");
  await expect(page.getByTestId("signing-key-id")).toHaveText(/^[0-9a-f]{16}$/);
  await expect(page.getByTestId("newest-digest")).toContainText("No. 1");

  // Keyboard only: to the button, Enter; the verdict's heading takes the focus.
  const submit = page.getByTestId("verify-submit");
  await submit.focus();
  await page.keyboard.press("Enter");
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toHaveAttribute("data-status", "intact");
  await expect(page.getByTestId("verdict-summary")).toHaveText("Intact: the log matches its digests.");
  await expect(page.getByRole("heading", { name: "Result" })).toBeFocused();

  const altered = await alterOneEvent(organizationId);
  await submit.focus();
  await page.keyboard.press("Enter");
  await expect(verdict).toHaveAttribute("data-status", "tampered");
  await expect(page.getByTestId("verdict-summary")).toHaveText("Tampered: 1 finding.");
  const finding = page.getByTestId("findings").getByRole("listitem");
  await expect(finding).toHaveCount(1);
  await expect(finding).toContainText(`Event ${altered}`);
  await expect(finding).toContainText("was altered: its content differs from what digest 1 sealed.");
  await finding.getByRole("link", { name: "Open the event" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/organization-settings/audit-log\\?event=${altered}`));
});

test("without JavaScript, in German: intact, then manipulated", async ({ browser }) => {
  const setup = await browser.newContext();
  const setupPage = await setup.newPage();
  await signUp(setupPage, { name: "Ingrid Integrität" });
  const organization = `Versiegelt ${randomUUID().slice(0, 8)}`;
  await createOrganization(setupPage, organization);
  const organizationId = await organizationIdByName(setupPage.request, organization);
  await sealE2eOrganization(organizationId);
  const storageState = (await setup.storageState()) as BrowserContextOptions["storageState"];
  await setup.close();

  const context = await browser.newContext({ storageState, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${INTEGRITY_PATH}?lng=de`);
  await expect(page.getByRole("heading", { name: "Integrität des Audit-Logs", level: 1 })).toBeVisible();
  await expect(page.getByText("Das Log ist versiegelt")).toBeVisible();
  await page.getByRole("button", { name: "Prüfen" }).click();
  await expect(page.getByTestId("verdict-summary")).toHaveText("Unverändert: Das Log stimmt mit seinen Digests überein.");

  const altered = await alterOneEvent(organizationId);
  await page.getByLabel("Von").fill("2000-01-01");
  await page.getByRole("button", { name: "Prüfen" }).click();
  await expect(page.getByTestId("verdict-summary")).toHaveText("Manipuliert: 1 Befund.");
  await expect(page.getByTestId("findings")).toContainText(`Ereignis ${altered}`);
  await expect(page.getByTestId("findings")).toContainText("wurde geändert");
  await expect(page.getByRole("link", { name: "Ereignis öffnen" })).toHaveAttribute(
    "href",
    `/dashboard/organization-settings/audit-log?event=${altered}`,
  );
  await context.close();
});

// An expiry reminder end to end (docs/decisions/0058-expiry-reminders.md): a key 6 days from its
// expiry, the planner's job run by the server's own worker (as its cron would), the owner's mail in
// the language they switched to while signed in, and its link: with another organization active it
// asks first, the switch is a button reached with the keyboard, and it lands on the keys page
// filtered to the key.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import pg from "pg";
import { expect, test } from "./fixtures";
import { e2eDatabaseUrl } from "./database";
import { createOrganization, gotoApiKeys, issueApiKeyViaForm, signUp } from "./helpers";
import { waitForMails } from "./mail";

/** Ages the key as if issued a month ago and expiring in 6 days, then queues the planner's job. */
async function keyDueForItsSevenDayReminder(organizationName: string, keyName: string): Promise<{ prefix: string }> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query<{ prefix: string }>(
      `UPDATE api_keys SET created_at = now() - interval '30 days', expires_at = now() + interval '6 days'
        WHERE name = $2 AND organization_id = (SELECT id FROM organizations WHERE name = $1) RETURNING prefix`,
      [organizationName, keyName],
    );
    if (rows.length !== 1) throw new Error(`No key ${keyName} in ${organizationName} at ${e2eDatabaseUrl()}`);
    await client.query(`SELECT graphile_worker.add_job('api-key-expiry-reminders', '{}'::json)`);
    return rows[0]!;
  } finally {
    await client.end();
  }
}

/** The organization the shell's switcher shows as active. */
function activeOrganization(page: Page) {
  return page
    .locator('select[id$="-org-switcher"]:visible')
    .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent?.trim());
}

test("the owner's reminder comes in their language, and its link asks before switching to the key's organization", async ({ page }) => {
  const suffix = randomUUID().slice(0, 8);
  const [keysOrganization, otherOrganization] = [`Reminders ${suffix}`, `Elsewhere ${suffix}`];
  const user = await signUp(page, { name: "Rita Reminder" });
  await createOrganization(page, keysOrganization);
  await gotoApiKeys(page);
  await issueApiKeyViaForm(page, { name: "nightly-export", scopes: ["Read members"] });
  // Another organization becomes the active one, and the person switches to German.
  await createOrganization(page, otherOrganization);
  await page.goto("/dashboard?lng=de");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  const { prefix } = await keyDueForItsSevenDayReminder(keysOrganization, "nightly-export");
  const reminder = (await waitForMails(user.email, { count: 2 })).find((mail) => mail.subject?.startsWith("API-Schlüssel"));
  expect(reminder?.subject).toBe(`API-Schlüssel „nightly-export“ von ${keysOrganization} läuft in 6 Tagen ab`);
  expect(reminder!.text).toContain(`(${prefix}…) von ${keysOrganization} läuft am `);
  const match = /https?:\/\/[^\s<>"]+\/dashboard\/organizations\/[0-9a-f-]{36}\/api-keys\?q=[^\s<>"]+/.exec(reminder!.text ?? "");
  expect(match, reminder!.text).toBeTruthy();
  const link = new URL(match![0]);
  expect(link.searchParams.get("q")).toBe(prefix);

  await page.goto(link.pathname + link.search);
  await expect(page.getByRole("heading", { name: `Die API-Schlüssel von ${keysOrganization} öffnen` })).toBeVisible();
  await expect(page.getByTestId("open-in-organization")).toContainText(`Sie arbeiten gerade in ${otherOrganization}.`);
  await expect.poll(() => activeOrganization(page)).toBe(otherOrganization);
  // Keyboard only: Tab until the switch button has the focus, then Enter.
  const switchButton = page.getByRole("button", { name: `Zu ${keysOrganization} wechseln` });
  for (let i = 0; i < 40 && !(await switchButton.evaluate((button) => button === document.activeElement)); i++)
    await page.keyboard.press("Tab");
  await expect(switchButton).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/organization-settings/api-keys\\?q=${prefix}$`));
  await expect.poll(() => activeOrganization(page)).toBe(keysOrganization);
  await expect(page.locator("[data-key-id]").filter({ hasText: "nightly-export" })).toBeVisible();

  // The same link now that the organization is active: straight to the keys page.
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(new RegExp(`/dashboard/organization-settings/api-keys\\?q=${prefix}$`));
});

// A key reported leaked by GitHub's secret scanning (docs/decisions/0060-secret-scanning-reports.md):
// after a signed report, the keys page shows "Reported leaked" on the key's row with where and when
// it was found, in English and German, on desktops and phones, and on the revoked key once revoked.
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { apiKeyRow, createOrganization, gotoApiKeys, issueApiKeyViaForm, revokedKeyRow, signUp } from "./helpers";
import { scanningHeaders } from "./scanning-key";

const FOUND_AT = "https://github.com/acme/app/blob/main/.env";

test("a reported key shows the badge and where it was found, until it is revoked and after", async ({ page }, testInfo) => {
  await signUp(page, { name: "Lea Leak" });
  await createOrganization(page, `Leaks ${randomUUID().slice(0, 8)}`);
  await gotoApiKeys(page);
  const secret = await issueApiKeyViaForm(page, { name: "Deploy bot", scopes: ["Read members"] });
  await issueApiKeyViaForm(page, { name: "Quiet key", scopes: ["Read members"] });

  const body = JSON.stringify([{ token: secret, type: "keyledger_api_key", url: FOUND_AT, source: "commit" }]);
  const answer = await page.request.post("/api/secret-scanning/github", { headers: scanningHeaders(body), data: body });
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toEqual([{ token_raw: secret, token_type: "keyledger_api_key", label: "true_positive" }]);

  await gotoApiKeys(page);
  const row = apiKeyRow(page, "Deploy bot");
  await expect(row.getByTestId("key-leaked")).toHaveText("Reported leaked");
  const report = row.getByTestId("key-leak-report");
  await expect(report).toContainText("Secret found in public on");
  await expect(report).toContainText("(commit)");
  await expect(report).toContainText("Rotate or revoke this key.");
  await expect(report.getByRole("link", { name: FOUND_AT })).toHaveAttribute("href", FOUND_AT);
  await expect(apiKeyRow(page, "Quiet key").getByTestId("key-leaked")).toHaveCount(0);
  // Keyboard: the link to where it was found is reachable and says where it leads.
  await report.getByRole("link").focus();
  await expect(report.getByRole("link")).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath("leak-desktop-en.png"), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await gotoApiKeys(page, "?lng=de");
  const germanRow = apiKeyRow(page, "Deploy bot");
  await expect(germanRow.getByTestId("key-leaked")).toHaveText("Als geleakt gemeldet");
  await expect(germanRow.getByTestId("key-leak-report")).toContainText("Rotieren oder widerrufen Sie diesen Schlüssel.");
  await page.screenshot({ path: testInfo.outputPath("leak-phone-de.png"), fullPage: true });

  // Revoked, the history still says its secret had leaked, and asks nothing more.
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoApiKeys(page, "?lng=en");
  await apiKeyRow(page, "Deploy bot").getByRole("link", { name: "Revoke: Deploy bot" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
  const revoked = revokedKeyRow(page, "Deploy bot");
  await expect(revoked.getByTestId("key-leaked")).toHaveText("Reported leaked");
  await expect(revoked.getByTestId("key-leak-report")).toContainText("The key is revoked: its secret no longer works.");
  await page.screenshot({ path: testInfo.outputPath("leak-revoked-en.png"), fullPage: true });
});

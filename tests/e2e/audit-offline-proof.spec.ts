// The digests download from the audit page, against the built app: the link beside the export's,
// with the page's filters, reachable by keyboard, in English and German, giving a manifest the
// offline verifier reads. (Sealing and the verifier's verdicts: tests/integration/audit-offline-proof.test.ts.)
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { demo, signIn } from "./helpers";

const AUDIT_PATH = "/dashboard/organization-settings/audit-log";

test("the digests link sits beside the export, keeps the filters and downloads a manifest", async ({ page }) => {
  await signIn(page, demo.acmeOwner);
  await page.goto(`${AUDIT_PATH}?from=2026-01-01&action=api_key.issued`);
  const link = page.getByRole("link", { name: "Download digests for offline verification" });
  await expect(link).toHaveAttribute("href", /\/audit-log\/digests\?action=api_key\.issued&from=2026-01-01$/);
  await expect(page.getByText("The signed digests of these events.", { exact: false })).toBeVisible();
  // Keyboard: the NDJSON link's next stop is the digests link.
  await page.getByRole("link", { name: "Download NDJSON" }).focus();
  await page.keyboard.press("Tab");
  await expect(link).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  expect(download.suggestedFilename()).toMatch(/^audit-digests-acme-2026-01-01-to-\d{4}-\d{2}-\d{2}\.json$/);
  const manifest = JSON.parse(await readFile((await download.path())!, "utf8")) as Record<string, unknown>;
  expect(manifest).toMatchObject({
    format: "keyledger-audit-manifest/1",
    from: "2026-01-01",
    to: null,
    filters: { action: "api_key.issued", from: "2026-01-01" },
  });
  expect(Array.isArray(manifest.digests)).toBe(true);
  await expect(page).toHaveURL(new RegExp(`${AUDIT_PATH}\\?from=2026-01-01&action=api_key\\.issued$`));

  await page.goto(`${AUDIT_PATH}?lng=de`);
  await expect(page.getByRole("link", { name: "Digests zur Offline-Prüfung herunterladen" })).toHaveAttribute(
    "href",
    /\/audit-log\/digests$/,
  );
  await expect(page.getByText("Die signierten Digests dieser Ereignisse.", { exact: false })).toBeVisible();
});

test("a plan without export offers no digests link", async ({ page }) => {
  await signIn(page, demo.globexOwner);
  await page.goto(AUDIT_PATH);
  await expect(page.getByTestId("audit-export-unavailable")).toBeVisible();
  await expect(page.getByTestId("audit-digests-link")).toHaveCount(0);
});

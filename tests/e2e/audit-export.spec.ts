// The audit log export from the page, against the built app: the download links carry the page's
// filters and give files a spreadsheet and a JSON reader can use, in English and German; a plan
// without export says so instead of offering links. Demo accounts: Acme is on Enterprise, Globex
// on Team.
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { demo, rpc, signIn } from "./helpers";

const AUDIT_PATH = "/dashboard/organization-settings/audit-log";
const COLUMNS = "id,createdAt,action,actorKind,actorId,actorName,targetType,targetId,targetName,details";

test("downloads the filtered log as CSV in English and as NDJSON in German", async ({ page }) => {
  await signIn(page, demo.acmeOwner);
  await page.goto(`${AUDIT_PATH}?action=audit.exported`);
  const csvLink = page.getByRole("link", { name: "Download CSV" });
  await expect(csvLink).toHaveAttribute("href", /\/audit-log\/export\?action=audit\.exported&format=csv$/);
  const [csvDownload] = await Promise.all([page.waitForEvent("download"), csvLink.click()]);
  expect(csvDownload.suggestedFilename()).toMatch(/^audit-log-acme-until-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await csvDownload.path())!, "utf8");
  const [header, ...rows] = csv.split("\r\n");
  expect(header).toBe(COLUMNS);
  expect(rows.at(-1)).toBe("");
  // Only what the filter selects: the demo history's earlier exports (the file never holds its own
  // event). The action is the third column; the id and the time before it hold no commas.
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows.slice(0, -1)) expect(row.split(",")[2]).toBe("audit.exported");
  // The page stays where it was.
  await expect(page).toHaveURL(new RegExp(`${AUDIT_PATH}\\?action=audit\\.exported$`));

  await page.goto(`${AUDIT_PATH}?lng=de&action=audit.exported`);
  await expect(page.getByRole("heading", { name: "Audit-Log" })).toBeVisible();
  const [ndjsonDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "NDJSON herunterladen" }).click(),
  ]);
  expect(ndjsonDownload.suggestedFilename()).toMatch(/^audit-log-acme-until-\d{4}-\d{2}-\d{2}\.ndjson$/);
  const lines = (await readFile((await ndjsonDownload.path())!, "utf8")).split("\n");
  expect(lines.at(-1)).toBe("");
  const events = lines.slice(0, -1).map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(Object.keys(events[0]!)).toEqual(COLUMNS.split(","));
  // The CSV download a moment ago is the newest event in this one, by today's name of its actor.
  expect(events[0]).toMatchObject({
    action: "audit.exported",
    actorKind: "user",
    actorName: "Olivia Owner",
    targetType: "organization",
    targetName: "Acme",
    details: { format: "csv", filters: { action: "audit.exported" } },
  });
  expect(events).toHaveLength(rows.length);
});

test("a plan without export says why instead of offering links, in both languages", async ({ page }) => {
  await signIn(page, demo.globexOwner);
  await page.goto(AUDIT_PATH);
  // The owner is also shown where the plan is changed.
  await expect(page.getByTestId("audit-export-unavailable")).toHaveText(
    "Exporting the audit log is not part of the Team plan. Plans that include it: Enterprise. Go to Billing",
  );
  await expect(page.getByRole("link", { name: "Go to Billing" })).toHaveAttribute("href", "/dashboard/organization-settings/billing");
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);
  await page.goto(`${AUDIT_PATH}?lng=de`);
  await expect(page.getByTestId("audit-export-unavailable")).toHaveText(
    "Der Export des Audit-Logs gehört nicht zum Tarif Team. Tarife mit Export: Enterprise. Zur Abrechnung",
  );
  // The route itself refuses too, in the page's language.
  const organizations = await rpc(page.request, "organization/list", {}, { "sec-fetch-site": "same-origin" });
  const globex = (organizations.json as { id: string; slug: string }[]).find((o) => o.slug === "globex")!;
  const refused = await page.request.get(`/api/organizations/${globex.id}/audit-log/export?format=csv`);
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({
    code: "FORBIDDEN",
    message: "Der Tarif Ihrer Organisation enthält keinen Export des Audit-Logs.",
  });
});

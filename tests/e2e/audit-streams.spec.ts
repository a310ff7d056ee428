// The audit stream pages end to end: an owner on an Enterprise organization adds a webhook stream
// to a receiver on this machine (the e2e server runs with STREAMING_ALLOW_PRIVATE_NETWORKS=true),
// sees the signing secret once, sends a test event the receiver gets and verifies, pauses and
// resumes, edits with the secret left empty (kept: the next test event still verifies), and
// deletes after the confirmation, keyboard only. Also: bad input, no JavaScript, German, another
// organization's stream id, a member (no link, 403), and a Team organization (the plan note).
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, BrowserContextOptions, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import pg from "pg";
import { e2eDatabaseUrl } from "./database";
import { createOrganization, demo, organizationIdByName, signIn, signUp } from "./helpers";

const STREAMS_PATH = "/dashboard/organization-settings/audit-streams";

/** A webhook receiver on 127.0.0.1 that keeps what it was sent. */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      // Paths under /failing answer 503, as a receiver that is down would.
      response.writeHead(request.url?.startsWith("/failing") ? 503 : 204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

/** The Standard Webhooks check a receiver makes: HMAC-SHA256 of "id.timestamp.body" with the secret's bytes. */
function verifiesWith(secret: string, delivery: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signed = `${String(delivery.headers["webhook-id"])}.${String(delivery.headers["webhook-timestamp"])}.${delivery.body}`;
  const expected = createHmac("sha256", key).update(signed).digest();
  return String(delivery.headers["webhook-signature"] ?? "")
    .split(" ")
    .some((entry) => {
      const [version, signature] = entry.split(",");
      const given = Buffer.from(signature ?? "", "base64");
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** The test events the receiver got on a path (the stream also delivers the log itself there). */
const testEventsAt = (path: string) => received.filter((delivery) => delivery.path === path && delivery.body.includes('"audit.test"'));

async function gotoStreams(page: Page, { javaScript = true } = {}) {
  const response = await page.goto(STREAMS_PATH);
  if (javaScript) await expect(page.getByTestId("audit-streams-page")).toHaveAttribute("data-hydrated", "true");
  return response;
}

/** The billing page's switch (the development provider): a fresh organization onto Enterprise. */
async function switchToEnterprise(page: Page) {
  await page.goto("/dashboard/organization-settings/billing");
  await expect(page.getByTestId("billing-page")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("link", { name: "Switch to Enterprise" }).click();
  await page.getByRole("dialog", { name: "Switch to the Enterprise plan?" }).getByRole("button", { name: "Switch plan" }).click();
  await expect(page.getByText("The organization is now on the Enterprise plan.")).toBeVisible();
}

test.describe("audit streams as the owner of an Enterprise organization", () => {
  // In order, in one worker: the tests share one fresh account, each with its own organization.
  test.describe.configure({ mode: "default" });

  let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
  test.beforeAll(async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signUp(page, { name: "Stella Streamer" });
    storageState = await context.storageState();
    await context.close();
  });
  test.use({ storageState: async ({}, use) => use(storageState as BrowserContextOptions["storageState"]) });

  test("create a webhook stream, secret once, test event, pause, resume, edit keeping the secret, delete by keyboard", async ({ page }) => {
    await createOrganization(page, `Streams ${randomUUID().slice(0, 8)}`);
    await switchToEnterprise(page);
    await page.getByRole("complementary").getByRole("link", { name: "Audit streams" }).click();
    await expect(page).toHaveURL(new RegExp(`${STREAMS_PATH}$`));
    await expect(page.getByTestId("audit-streams-page")).toHaveAttribute("data-hydrated", "true");
    await expect(page.getByTestId("streams-empty")).toBeVisible();

    // Bad input: a malformed address is refused beside its field, and nothing is created.
    const form = page.locator("form#create-stream");
    await form.getByLabel("Name", { exact: true }).fill("Security SIEM");
    await form.getByRole("textbox", { name: "URL" }).fill("not a url");
    await form.getByRole("button", { name: "Add stream" }).click();
    await expect(form.getByText("Enter the destination's full address, starting with https://.")).toBeVisible();
    await expect(page.getByTestId("streams-empty")).toBeVisible();

    // Only the chosen kind's fields show once the page is interactive.
    await expect(form.getByLabel("HEC token")).toBeHidden();
    await form.getByRole("radio", { name: "Splunk HEC" }).check();
    await expect(form.getByLabel("HEC token")).toBeVisible();
    await form.getByRole("radio", { name: "Webhook" }).check();

    const path = `/hook-${randomUUID().slice(0, 8)}`;
    await form.getByRole("textbox", { name: "URL" }).fill(`${receiverUrl}${path}`);
    await expect(form.getByRole("radio", { name: "From now" })).toBeChecked();
    await form.getByRole("button", { name: "Add stream" }).click();

    // The signing secret, once.
    const panel = page.getByTestId("stream-secret-panel");
    await expect(panel).toBeVisible();
    await expect(panel).toContainText("It is shown only once");
    const secret = await panel.locator("#stream-secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32,}$/);
    await expect(page.getByTestId("streams").getByText("Security SIEM")).toBeVisible();
    await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");
    // Named by its origin: a hook's path can carry a secret.
    await expect(page.getByTestId("stream-destination")).toHaveText(`${receiverUrl}/…`);
    await page.reload();
    await expect(page.getByTestId("stream-secret-panel")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);

    // The delivery page: a test event reaches the receiver, signed with that secret.
    await page.getByRole("link", { name: "Delivery of Security SIEM" }).click();
    await expect(page.getByTestId("audit-stream-page")).toHaveAttribute("data-hydrated", "true");
    await expect(page.getByRole("heading", { level: 1, name: "Security SIEM" })).toBeVisible();
    await expect(page.getByTestId("stream-state")).toHaveText("Delivering");
    expect(await page.content()).not.toContain(secret);
    await page.getByRole("button", { name: "Send a test event" }).click();
    await expect(page.getByTestId("stream-test-outcome")).toHaveText("The test event was delivered (HTTP 204).");
    await expect.poll(() => testEventsAt(path).length).toBe(1);
    const first = testEventsAt(path)[0]!;
    expect(first.headers["webhook-id"]).toBeTruthy();
    expect(verifiesWith(secret, first)).toBe(true);
    expect(JSON.parse(first.body)).toMatchObject({ type: "audit.test", version: 1 });

    // Pause and resume.
    await page.getByRole("button", { name: "Pause" }).click();
    await expect(page.getByText("Delivery paused. The position is kept.")).toBeVisible();
    await expect(page.getByTestId("stream-state")).toHaveText("Paused");
    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByText("Delivery resumed from where it stopped.")).toBeVisible();
    await expect(page.getByTestId("stream-state")).toHaveText("Delivering");

    // Restart: replay from today (UTC), confirmed in the dialog.
    await page.getByRole("link", { name: "Restart delivery…" }).click();
    const restart = page.getByRole("dialog", { name: "Restart delivery of “Security SIEM”?" });
    await restart.getByRole("radio", { name: "Replay from a date" }).check();
    await restart.getByLabel("Day (UTC)").fill(new Date().toISOString().slice(0, 10));
    await restart.getByRole("button", { name: "Restart delivery" }).click();
    await expect(restart).toBeHidden();
    await expect(page.getByText("Delivery restarted.")).toBeVisible();
    await expect(page.getByText("Replaying from")).toBeVisible();

    // Edit: a new name and path, the secret left empty (it says a value is stored): kept.
    const edit = page.locator("form#edit-stream");
    await expect(edit.getByLabel("Signing secret (optional)")).toHaveValue("");
    await expect(edit.getByText("A value is stored. Leave empty to keep it")).toBeVisible();
    const newPath = `${path}-edited`;
    await edit.getByLabel("Name", { exact: true }).fill("Security SIEM (EU)");
    await edit.getByLabel("URL").fill(`${receiverUrl}${newPath}`);
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Security SIEM (EU)" })).toBeVisible();
    // The test's outcome shows as soon as the action answers, while the page still reloads its
    // data: held here, so the delete dialog below opens before that reload ends, and must stay open.
    let releaseReload = () => {};
    const reloadHeld = new Promise<void>((resolve) => (releaseReload = resolve));
    await page.route(/\.data(\?|$)/, async (route) => {
      if (route.request().method() === "GET") await reloadHeld;
      await route.continue();
    });
    await page.getByRole("button", { name: "Send a test event" }).click();
    await expect(page.getByTestId("stream-test-outcome")).toContainText("delivered");
    await expect.poll(() => testEventsAt(newPath).length).toBe(1);
    expect(verifiesWith(secret, testEventsAt(newPath)[0]!)).toBe(true);

    // Delete, keyboard only: the dialog names the stream, takes the focus, Esc returns it.
    const trigger = page.getByRole("link", { name: "Delete stream…" });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Delete stream “Security SIEM (EU)”?" });
    await expect(dialog).toBeVisible();
    const reloaded = page.waitForResponse((response) => response.request().method() === "GET" && /\.data(\?|$)/.test(response.url()));
    releaseReload();
    await reloaded;
    await page.unroute(/\.data(\?|$)/);
    // The reload ended while it was open: it stays open, with the focus in it.
    // (The page behind the dialog is hidden from roles: found by its text. Enabled = idle again.)
    await expect(page.locator("form button", { hasText: "Send a test event" })).toBeEnabled();
    await expect(dialog).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Delete stream" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`${STREAMS_PATH}$`));
    await expect(page.getByTestId("streams-empty")).toBeVisible();
  });

  test("without JavaScript: a Splunk stream from the grouped form, a replay day, a new host needing the token again, delete on the confirm view", async ({
    browser,
  }) => {
    const context = await browser.newContext({ storageState, javaScriptEnabled: false });
    const page = await context.newPage();
    await createOrganization(page, `Streams NoJS ${randomUUID().slice(0, 8)}`);
    await switchToEnterpriseWithoutScript(page);
    await gotoStreams(page, { javaScript: false });
    const form = page.locator("form#create-stream");
    // Every kind's group is there, each named.
    await expect(form.getByRole("group", { name: "Splunk HEC settings" })).toBeVisible();
    await expect(form.getByRole("group", { name: "S3 bucket settings" })).toBeVisible();
    await form.getByLabel("Name", { exact: true }).fill("Splunk");
    await form.getByRole("radio", { name: "Splunk HEC" }).check();
    const splunk = form.getByRole("group", { name: "Splunk HEC settings" });
    await splunk.getByLabel("URL").fill(`${receiverUrl}/splunk`);
    await splunk.getByLabel("HEC token").fill("has spaces");
    await form.getByRole("radio", { name: "Replay from a date" }).check();
    await form.getByLabel("Day (UTC)").fill("2026-01-15");
    await form.getByRole("button", { name: "Add stream" }).click();
    // The token is refused beside its field; the typed token is not sent back.
    await expect(splunk.getByText("An HTTP Event Collector token is 1 to 128 letters, digits and hyphens.")).toBeVisible();
    await expect(splunk.getByLabel("HEC token")).toHaveValue("");
    await expect(splunk.getByLabel("URL")).toHaveValue(`${receiverUrl}/splunk`);
    await splunk.getByLabel("HEC token").fill(randomUUID());
    await form.getByRole("button", { name: "Add stream" }).click();
    await expect(page.getByText("Stream “Splunk” added.")).toBeVisible();
    await expect(page.getByTestId("stream-secret-panel")).toHaveCount(0);

    await page.getByRole("link", { name: "Delivery of Splunk" }).click();
    await expect(page.getByText("Replaying from")).toBeVisible();

    // A new host needs the token again: refused in the edit form, the typed address kept, nothing saved.
    const edit = page.locator("form#edit-stream");
    await expect(edit.getByText("A new address needs it typed again.")).toBeVisible();
    const movedUrl = `${receiverUrl.replace("127.0.0.1", "localhost")}/splunk`;
    await edit.getByLabel("URL").fill(movedUrl);
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(
      page.locator("form#edit-stream").getByText("The destination's address changed, so enter its credentials again."),
    ).toBeVisible();
    await expect(page.locator("form#edit-stream").getByLabel("URL")).toHaveValue(movedUrl);
    await expect(page.getByText("Changes saved.")).toHaveCount(0);
    await page.locator("form#edit-stream").getByLabel("HEC token").fill(randomUUID());
    await page.locator("form#edit-stream").getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    await expect(page.locator("form#edit-stream").getByLabel("URL")).toHaveValue(movedUrl);
    await page.getByRole("link", { name: "Delete stream…" }).click();
    await expect(page).toHaveURL(/\?confirm=delete$/);
    const confirm = page.getByTestId("stream-confirm-panel");
    await expect(confirm).toContainText("Delete stream “Splunk”?");
    await confirm.getByRole("button", { name: "Delete stream" }).click();
    await expect(page).toHaveURL(new RegExp(`${STREAMS_PATH}$`));
    await expect(page.getByTestId("streams-empty")).toBeVisible();
    await context.close();
  });

  test("another organization's stream id and an unknown one are the app's 404", async ({ page }) => {
    await createOrganization(page, `Streams A ${randomUUID().slice(0, 8)}`);
    await switchToEnterprise(page);
    await gotoStreams(page);
    const form = page.locator("form#create-stream");
    await form.getByLabel("Name", { exact: true }).fill("Tenant A");
    await form.getByRole("textbox", { name: "URL" }).fill(`${receiverUrl}/tenant-a`);
    await form.getByRole("button", { name: "Add stream" }).click();
    await expect(page.getByTestId("stream-secret-panel")).toBeVisible();
    const href = await page.getByRole("link", { name: "Delivery of Tenant A" }).getAttribute("href");
    // A second organization becomes the active one: A's stream is not found from there.
    await createOrganization(page, `Streams B ${randomUUID().slice(0, 8)}`);
    expect((await page.goto(href!))?.status()).toBe(404);
    expect((await page.request.post(href!, { form: { intent: "delete", version: "1" }, maxRedirects: 0 })).status()).toBe(404);
    expect((await page.goto(`${STREAMS_PATH}/${randomUUID()}`))?.status()).toBe(404);
    expect((await page.goto(`${STREAMS_PATH}/not-a-uuid`))?.status()).toBe(404);
  });

  test("a receiver that answers 503: the test says why, and the delivery page shows the failing state and its failures", async ({
    page,
  }) => {
    const organizationName = `Streams Failing ${randomUUID().slice(0, 8)}`;
    await createOrganization(page, organizationName);
    await switchToEnterprise(page);
    await gotoStreams(page);
    const form = page.locator("form#create-stream");
    await form.getByLabel("Name", { exact: true }).fill("Down");
    await form.getByRole("textbox", { name: "URL" }).fill(`${receiverUrl}/failing`);
    await form.getByRole("button", { name: "Add stream" }).click();
    await page.getByRole("link", { name: "Delivery of Down" }).click();
    await expect(page.getByTestId("audit-stream-page")).toHaveAttribute("data-hydrated", "true");
    // The delivery job sends the stream's own creation event at once; the receiver refuses it and
    // the page lists that failure with the receiver's status.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId("stream-failures").getByRole("row").nth(1)).toContainText("503", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await page.getByRole("button", { name: "Send a test event" }).click();
    const outcome = page.getByTestId("stream-test-outcome");
    await expect(outcome).toContainText("The test event was not delivered: The receiver answered with an error status.");
    await expect(outcome).toContainText("Receiver's status: 503.");

    // A run of failures older than the failing threshold (15 minutes; written here rather than
    // waited for), and an older failure of another kind, as the job records them.
    const streamId = new URL(page.url()).pathname.split("/").pop()!;
    const organizationId = await organizationIdByName(page.request, organizationName);
    const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
    await client.connect();
    try {
      await client.query(
        `UPDATE audit_streams SET failing_since = now() - interval '2 hours', next_attempt_at = now() + interval '10 minutes',
                consecutive_failures = 12 WHERE organization_id = $1 AND id = $2`,
        [organizationId, streamId],
      );
      await client.query(
        `INSERT INTO audit_stream_failures (organization_id, stream_id, id, at, failure, status, detail)
         VALUES ($1, $2, $3, now() - interval '1 hour', 'timeout', NULL, 'no answer within 10000 ms')`,
        [organizationId, streamId, randomUUID()],
      );
    } finally {
      await client.end();
    }
    await page.reload();
    await expect(page.getByTestId("stream-state")).toHaveText("Failing");
    await expect(page.getByTestId("stream-next-attempt")).toBeVisible();
    const failures = page.getByTestId("stream-failures");
    await expect(failures.getByRole("row").nth(1)).toContainText("503");
    await expect(failures.getByRole("row").nth(1)).toContainText("The receiver answered with an error status.");
    const timedOut = failures.getByRole("row").filter({ hasText: "The receiver did not answer in time." });
    await expect(timedOut).toHaveCount(1);
    await expect(timedOut).toContainText("None");
    // Newest first: the hour-old timeout is the last row.
    await expect(failures.getByRole("row").last()).toContainText("The receiver did not answer in time.");
    if (process.env.SCREENSHOTS)
      await page.screenshot({ path: "test-results/screens/audit-streams-failing-en-desktop.png", fullPage: true });
    await gotoStreams(page);
    await expect(page.getByTestId("stream-state")).toHaveText("Failing");
  });

  test("two people editing one stream: the second save is a conflict and shows what is stored now", async ({ page, context }) => {
    await createOrganization(page, `Streams Edit ${randomUUID().slice(0, 8)}`);
    await switchToEnterprise(page);
    await gotoStreams(page);
    const form = page.locator("form#create-stream");
    await form.getByLabel("Name", { exact: true }).fill("Shared");
    await form.getByRole("textbox", { name: "URL" }).fill(`${receiverUrl}/shared`);
    await form.getByRole("button", { name: "Add stream" }).click();
    await page.getByRole("link", { name: "Delivery of Shared" }).click();
    await expect(page.getByTestId("audit-stream-page")).toHaveAttribute("data-hydrated", "true");
    const other = await context.newPage();
    await other.goto(page.url());
    await expect(other.getByTestId("audit-stream-page")).toHaveAttribute("data-hydrated", "true");

    await other.locator("form#edit-stream").getByLabel("Name", { exact: true }).fill("Renamed elsewhere");
    await other.locator("form#edit-stream").getByRole("button", { name: "Save changes" }).click();
    await expect(other.getByText("Changes saved.")).toBeVisible();

    const edit = page.locator("form#edit-stream");
    await edit.getByLabel("Name", { exact: true }).fill("Renamed here");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Someone else changed this destination since you opened it.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Renamed elsewhere" })).toBeVisible();
    await expect(page.locator("form#edit-stream").getByLabel("Name", { exact: true })).toHaveValue("Renamed elsewhere");
    // Saving again is a decision made seeing the other change: it goes through.
    await page.locator("form#edit-stream").getByLabel("Name", { exact: true }).fill("Renamed here");
    await page.locator("form#edit-stream").getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Changes saved.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Renamed here" })).toBeVisible();
  });

  test("German labels", async ({ page, context, baseURL }) => {
    await createOrganization(page, `Streams DE ${randomUUID().slice(0, 8)}`);
    await switchToEnterprise(page);
    await context.addCookies([{ name: "lng", value: "de", url: baseURL! }]);
    await gotoStreams(page);
    await expect(page.getByRole("heading", { level: 1, name: "Audit-Log-Streaming" })).toBeVisible();
    await expect(page.getByRole("complementary").getByRole("link", { name: "Audit-Streams" })).toBeVisible();
    const form = page.locator("form#create-stream");
    await expect(form.getByRole("radio", { name: "Ab jetzt" })).toBeChecked();
    await form.getByLabel("Name", { exact: true }).fill("SIEM");
    await form.getByRole("textbox", { name: "URL" }).fill("kaputt");
    await form.getByRole("button", { name: "Stream hinzufügen" }).click();
    await expect(form.getByText("Geben Sie die vollständige Adresse des Ziels ein, beginnend mit https://.")).toBeVisible();
    await expect(page.getByText("Noch keine Streams")).toBeVisible();
  });
});

/** The billing switch without JavaScript: its confirm view. */
async function switchToEnterpriseWithoutScript(page: Page) {
  await page.goto("/dashboard/organization-settings/billing");
  await page.getByRole("link", { name: "Switch to Enterprise" }).click();
  await page.getByRole("button", { name: "Switch plan" }).click();
  await expect(page.getByText("The organization is now on the Enterprise plan.")).toBeVisible();
}

test("members get no link and 403 on the streams pages", async ({ page }) => {
  await signIn(page, demo.acmeMember);
  await expect(page.getByRole("complementary").getByRole("link", { name: "Organization settings" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Audit streams" })).toHaveCount(0);
  expect((await page.goto(STREAMS_PATH))?.status()).toBe(403);
  await expect(page.locator("form#create-stream")).toHaveCount(0);
  expect((await page.goto(`${STREAMS_PATH}/${randomUUID()}`))?.status()).toBe(403);
  const post = await page.request.post(STREAMS_PATH, {
    form: { intent: "create", name: "Sneaky", kind: "webhook", "webhook.url": `${receiverUrl}/sneaky` },
    maxRedirects: 0,
  });
  expect(post.status()).toBe(403);
});

test("a Team organization is told streaming is part of Enterprise, with the billing link", async ({ page }) => {
  await signIn(page, demo.globexOwner);
  await gotoStreams(page);
  const note = page.getByTestId("streaming-blocked");
  await expect(note).toContainText("Streaming the audit log is part of the Enterprise plan. This organization is on Team");
  await expect(note.getByRole("link", { name: "Go to billing" })).toHaveAttribute("href", "/dashboard/organization-settings/billing");
  await expect(page.locator("form#create-stream")).toHaveCount(0);
  // The audit log page links here for those who manage streams.
  await page.goto("/dashboard/organization-settings/audit-log");
  await page.getByTestId("audit-streams-link").click();
  await expect(page).toHaveURL(new RegExp(`${STREAMS_PATH}$`));
});

// Screenshots for people to look at (test-results/screens/audit-streams-*), opt-in as in
// screenshots.spec.ts: SCREENSHOTS=1 npx playwright test audit-streams
test.describe("audit stream screenshots", () => {
  test.skip(!process.env.SCREENSHOTS, "set SCREENSHOTS=1 to capture screenshots");
  test("list, create form, secret, delivery page and dialog, English and German, desktop and phone", async ({ page, context, baseURL }) => {
    test.setTimeout(120_000);
    await signUp(page, { name: "Sam Screens" });
    await createOrganization(page, `Screens ${randomUUID().slice(0, 8)}`);
    await switchToEnterprise(page);
    await gotoStreams(page);
    const form = page.locator("form#create-stream");
    await form.getByLabel("Name", { exact: true }).fill("Security SIEM");
    await form.getByRole("textbox", { name: "URL" }).fill(`${receiverUrl}/screens`);
    await form.getByRole("button", { name: "Add stream" }).click();
    await expect(page.getByTestId("stream-secret-panel")).toBeVisible();
    const shoot = (name: string) => page.screenshot({ path: `test-results/screens/audit-streams-${name}.png`, fullPage: true });
    await shoot("secret-en-desktop");
    const streamHref = (await page.getByRole("link", { name: "Delivery of Security SIEM" }).getAttribute("href"))!;
    for (const lng of ["en", "de"] as const) {
      await context.addCookies([{ name: "lng", value: lng, url: baseURL! }]);
      for (const [viewport, size] of Object.entries({ desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } })) {
        await page.setViewportSize(size);
        await gotoStreams(page);
        await shoot(`list-${lng}-${viewport}`);
        await page.goto(streamHref);
        await expect(page.getByTestId("audit-stream-page")).toHaveAttribute("data-hydrated", "true");
        await shoot(`delivery-${lng}-${viewport}`);
        await page.getByRole("link", { name: lng === "en" ? "Delete stream…" : "Stream löschen…" }).click();
        await expect(page.getByRole("dialog")).toBeVisible();
        await shoot(`delete-dialog-${lng}-${viewport}`);
      }
    }
  });
});

// Shared steps for the browser tests. Tests that change state create their own users.
import { randomUUID } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { forgetSignUpLimit } from "./database";
import { verificationLink, waitForMail } from "./mail";

export const DEMO_PASSWORD = "correct-horse-battery-staple";
export const demo = {
  acmeOwner: "owner@acme.test",
  acmeAdmin: "admin@acme.test",
  acmeMember: "member@acme.test",
  globexOwner: "owner@globex.test",
} as const;

/** A fresh e-mail address per call, so tests never share accounts they change. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID().slice(0, 12)}@e2e.test`;
}

/**
 * Signs up as a new person would: the form, "check your inbox", the mailed link, the password
 * chosen at sign-up and "Confirm and continue", and the dashboard, signed in with a verified address.
 */
export async function signUp(page: Page, options: { name?: string; email?: string; password?: string } = {}) {
  const user = {
    name: options.name ?? "Erika Mustermann",
    email: options.email ?? uniqueEmail(),
    password: options.password ?? "a-long-enough-passphrase",
  };
  await forgetSignUpLimit();
  await page.goto("/signup");
  await page.getByLabel("Your name").fill(user.name);
  await page.getByLabel("E-mail address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Repeat password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
  const link = verificationLink(await waitForMail(user.email));
  await page.goto(link.pathname + link.search);
  await expect(page.getByTestId("verify-email")).toContainText(user.email);
  await page.getByLabel("Enter the password you chose when signing up").fill(user.password);
  await page.getByRole("button", { name: "Confirm and continue" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return user;
}

/** Fills the sign-in form; the caller asserts where it lands (dashboard or the second step). */
export async function submitSignIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function signOut(page: Page) {
  await page.getByLabel("Account menu").click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

export async function createOrganization(page: Page, name: string, slug?: string) {
  await page.goto("/dashboard/organizations/new");
  await page.getByLabel("Organization name").fill(name);
  if (slug) await page.getByLabel("Slug (optional)").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("active-organization")).toHaveText(name);
}

/** TOTP for the manual key shown at enrolment; `stepOffset` 1 gives the next 30 s step's code. */
export function totp(manualKey: string, stepOffset = 0, now = Date.now()): string {
  const key = decodeBase32IgnorePadding(manualKey.replace(/\s+/g, ""));
  const step = BigInt(Math.floor(now / 1000 / 30) + stepOffset);
  return generateHOTP(key, step, 6);
}

/** Enrols TOTP on the security page of a signed-in user; returns the key and the recovery codes. */
export async function enrolTwoFactor(page: Page) {
  await page.goto("/dashboard/account/security");
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const manualKey = (await page.getByTestId("totp-manual-key").textContent())?.trim() ?? "";
  expect(manualKey).toMatch(/^[A-Z2-7 ]{16,}$/);
  await page.getByLabel("6-digit code from the app").fill(totp(manualKey));
  await page.getByRole("button", { name: "Confirm and turn on" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recoveryCodes = (await codes.allTextContents()).map((code) => code.trim());
  return { manualKey, recoveryCodes };
}

/** POST /rpc/<path> with `{"json": input}`; returns status and parsed body. */
export async function rpc(request: APIRequestContext, path: string, input: unknown, headers: Record<string, string> = {}) {
  const response = await request.post(`/rpc/${path}`, {
    headers: { "content-type": "application/json", ...headers },
    data: JSON.stringify({ json: input }),
  });
  const body = (await response.json()) as { json: any };
  return { status: response.status(), json: body.json };
}

// --- API keys -------------------------------------------------------------------------------

export const API_KEYS_PATH = "/dashboard/organization-settings/api-keys";

/** Opens the keys page; with JavaScript, waits until React has hydrated it (dialogs, copy button). */
export async function gotoApiKeys(page: Page, query = "", { javaScript = true } = {}) {
  const response = await page.goto(`${API_KEYS_PATH}${query}`);
  if (javaScript) await expect(page.getByTestId("api-keys-page")).toHaveAttribute("data-hydrated", "true");
  return response;
}

/** The row of the unrevoked key with this exact name, in the "Keys in use" list. */
export function apiKeyRow(page: Page, name: string) {
  return page.locator("[data-key-id]").filter({ has: page.getByTestId("key-name").getByText(name, { exact: true }) });
}

/** The row(s) of revoked keys with this exact name, in the "Revoked keys" history (names can repeat there). */
export function revokedKeyRow(page: Page, name: string) {
  return page.locator("[data-revoked-key-id]").filter({ has: page.getByTestId("key-name").getByText(name, { exact: true }) });
}

/** Issues a key over RPC and revokes it at once (fast setup for the revoked history). */
export async function issueAndRevokeViaRpc(request: APIRequestContext, organizationId: string, name: string) {
  const issued = await rpc(request, "apiKey/issue", { organizationId, name, scopes: ["organization:read"] });
  if (issued.status !== 200) throw new Error(`issue ${name}: ${issued.status}`);
  const revoked = await rpc(request, "apiKey/revoke", { organizationId, keyId: issued.json.key.id });
  if (revoked.status !== 200) throw new Error(`revoke ${name}: ${revoked.status}`);
  return issued.json.key.id as string;
}

/**
 * Fills and submits the issue form. `scopes` are the checkbox labels as shown (e.g. "Read members");
 * `labels` lets German tests pass German field labels. Returns nothing: callers read the outcome.
 */
export async function fillIssueForm(
  page: Page,
  input: { name?: string; scopes?: string[]; expiresOn?: string },
  labels = { name: "Name", expiresOn: "Expires on (optional)", submit: "Issue key" },
) {
  const form = page.locator("form#issue-key");
  if (input.name !== undefined) await form.getByLabel(labels.name, { exact: true }).fill(input.name);
  for (const scope of input.scopes ?? []) await form.getByRole("checkbox", { name: scope }).check();
  if (input.expiresOn !== undefined) await form.getByLabel(labels.expiresOn).fill(input.expiresOn);
  await form.getByRole("button", { name: labels.submit }).click();
}

/** The secret of the secret-once panel, after checking it looks like one. */
export async function readShownSecret(page: Page): Promise<string> {
  const panel = page.getByTestId("secret-panel");
  await expect(panel).toBeVisible();
  const secret = await panel.locator("#issued-secret").inputValue();
  expect(secret).toMatch(/^sk_[0-9A-Za-z]{73}$/);
  return secret;
}

/** Issues a key through the form (English labels) and returns its secret. */
export async function issueApiKeyViaForm(page: Page, input: { name: string; scopes: string[]; expiresOn?: string }) {
  await fillIssueForm(page, input);
  return readShownSecret(page);
}

/** POST /rpc/apiKey/authenticate with the key as bearer token. */
export async function authenticateKey(request: APIRequestContext, secret: string, scopes: string[] = []) {
  return rpc(request, "apiKey/authenticate", { scopes }, { authorization: `Bearer ${secret}` });
}

/** The id of an organization the signed-in user belongs to, by name. */
export async function organizationIdByName(request: APIRequestContext, name: string): Promise<string> {
  const list = await rpc(request, "organization/list", {});
  expect(list.status).toBe(200);
  const found = (list.json as { id: string; name: string }[]).find((o) => o.name === name);
  expect(found, `organization ${name}`).toBeTruthy();
  return found!.id;
}

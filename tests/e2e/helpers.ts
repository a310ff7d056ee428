// Shared steps for the browser tests. Tests that change state create their own users.
import { randomUUID } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { generateHOTP } from "@oslojs/otp";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

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

export async function signUp(page: Page, options: { name?: string; email?: string; password?: string } = {}) {
  const user = { name: options.name ?? "Erika Mustermann", email: options.email ?? uniqueEmail(), password: options.password ?? "a-long-enough-passphrase" };
  await page.goto("/signup");
  await page.getByLabel("Your name").fill(user.name);
  await page.getByLabel("E-mail address").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Repeat password").fill(user.password);
  await page.getByRole("button", { name: "Create account" }).click();
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

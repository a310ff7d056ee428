import { expect, test } from "./fixtures";
import { enrolTwoFactor, signOut, signUp, submitSignIn, totp } from "./helpers";

/** A 6-digit code that is none of the codes the server accepts right now (steps -1, 0, +1). */
function wrongCode(manualKey: string): string {
  const valid = new Set([-1, 0, 1, 2].map((offset) => totp(manualKey, offset)));
  for (let n = 123456; ; n++) if (!valid.has(String(n))) return String(n);
}

test.describe("two-factor authentication", () => {
  test("enrol, then sign in with a TOTP code and with a recovery code; wrong and replayed codes fail", async ({ page }) => {
    const user = await signUp(page, { name: "Grace Hopper" });
    await expect(page.getByText("Two-factor authentication is off for your account.")).toBeVisible();

    const { manualKey, recoveryCodes } = await enrolTwoFactor(page);
    await expect(page.getByText("Two-factor authentication is now on.")).toBeVisible();
    await page.getByRole("link", { name: "I have saved my recovery codes" }).click();
    await expect(page.getByText("Two-factor authentication is on.", { exact: true })).toBeVisible();
    await expect(page.getByText("Unused recovery codes: 10")).toBeVisible();
    await signOut(page);

    // Second step with a TOTP code.
    await submitSignIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/login\/two-factor\?redirectTo=%2Fdashboard$/);
    await expect(page.getByRole("heading", { name: "Enter your authentication code" })).toBeVisible();
    // The half-signed-in session cannot reach the dashboard yet.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\/two-factor/);

    await page.getByLabel("Authentication code").fill(wrongCode(manualKey));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert")).toHaveText("That code is not valid. Check your authenticator app and try again.");

    // The enrolment used this step's code; the next step's code is within the allowed drift.
    const nextCode = totp(manualKey, 1);
    await page.getByLabel("Authentication code").fill(nextCode);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText("Two-factor authentication is on for your account.")).toBeVisible();
    await signOut(page);

    // A code is accepted once; then a recovery code works (once).
    await submitSignIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/login\/two-factor/);
    await page.getByLabel("Authentication code").fill(nextCode);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert")).toHaveText("That code is not valid. Check your authenticator app and try again.");
    await page.getByLabel("Authentication code").fill(recoveryCodes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/dashboard/account/security");
    await expect(page.getByText("Unused recovery codes: 9")).toBeVisible();
    await signOut(page);

    await submitSignIn(page, user.email, user.password);
    await page.getByLabel("Authentication code").fill(recoveryCodes[0]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert")).toHaveText("That code is not valid. Check your authenticator app and try again.");
    // "Sign in with a different account" drops the half-signed-in session.
    await page.getByRole("button", { name: "Sign in with a different account" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?/);
  });

  test("a wrong code at enrolment shows an error and keeps the same key", async ({ page }) => {
    await signUp(page);
    await page.goto("/dashboard/account/security");
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const manualKey = (await page.getByTestId("totp-manual-key").textContent())!.trim();
    await page.getByLabel("6-digit code from the app").fill(wrongCode(manualKey));
    await page.getByRole("button", { name: "Confirm and turn on" }).click();
    await expect(page.getByRole("alert")).toHaveText("That code is not valid. Check your authenticator app and try again.");
    await expect(page.getByTestId("totp-manual-key")).toHaveText(manualKey);
    await page.getByLabel("6-digit code from the app").fill("12ab");
    await page.getByRole("button", { name: "Confirm and turn on" }).click();
    await expect(page.getByRole("alert").first()).toContainText("Enter the 6-digit code from your authenticator app.");
    await page.getByLabel("6-digit code from the app").fill(totp(manualKey));
    await page.getByRole("button", { name: "Confirm and turn on" }).click();
    await expect(page.getByTestId("recovery-codes")).toBeVisible();
  });
});

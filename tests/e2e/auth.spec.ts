import { expect, test } from "./fixtures";
import { DEMO_PASSWORD, demo, signIn, signOut, signUp, submitSignIn, uniqueEmail } from "./helpers";

test.describe("accounts", () => {
  test("sign up creates an account and lands on the dashboard", async ({ page }) => {
    const user = await signUp(page, { name: "Ada Lovelace" });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Ada Lovelace");
    await expect(page.getByRole("link", { name: "Create an organization" })).toBeVisible();
    await page.getByLabel("Account menu").click();
    await expect(page.getByText(user.email)).toBeVisible();
  });

  test("sign up rejects a taken e-mail and mismatched passwords", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Someone");
    await page.getByLabel("E-mail address").fill(demo.acmeOwner);
    await page.getByLabel("Password", { exact: true }).fill("a-long-enough-passphrase");
    await page.getByLabel("Repeat password").fill("a-different-passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("The passwords do not match.")).toBeVisible();
    await page.getByLabel("Repeat password").fill("a-long-enough-passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("An account with this e-mail address already exists.")).toBeVisible();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test("sign in with a demo account without two-factor authentication", async ({ page }) => {
    await signIn(page, demo.acmeOwner);
    await expect(page.getByTestId("active-organization")).toHaveText("Acme");
    await expect(
      page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Organization settings" }),
    ).toBeVisible();
    await page.getByRole("complementary").getByRole("link", { name: "Organization settings" }).click();
    await expect(page).toHaveURL(/\/dashboard\/organization-settings$/);
    await page.getByRole("complementary").getByRole("link", { name: "Members" }).click();
    await expect(page).toHaveURL(/\/dashboard\/organization-settings\/members$/);
    await expect(page.getByRole("cell", { name: demo.acmeAdmin })).toBeVisible();
  });

  test("a wrong password and an unknown e-mail get the same message", async ({ page }) => {
    await submitSignIn(page, demo.acmeMember, "not-the-password");
    await expect(page.getByRole("alert")).toHaveText("The e-mail address or password is incorrect.");
    await expect(page).toHaveURL(/\/login$/);
    await submitSignIn(page, uniqueEmail("nobody"), DEMO_PASSWORD);
    await expect(page.getByRole("alert")).toHaveText("The e-mail address or password is incorrect.");
  });

  test("sign out ends the session; /dashboard then redirects to /login", async ({ page }) => {
    await signUp(page);
    // A GET cannot sign anyone out.
    await page.goto("/logout");
    await expect(page).toHaveURL(/\/dashboard$/);
    await signOut(page);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);
    await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  });

  test("a signed-in user visiting /login goes to the dashboard", async ({ page }) => {
    await signIn(page, demo.acmeMember);
    await page.goto("/login");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("missing or forged session cookie on /dashboard redirects to /login", async ({ page, context, request }) => {
    const missing = await request.get("/dashboard", { maxRedirects: 0 });
    expect(missing.status()).toBe(302);
    expect(missing.headers().location).toMatch(/^\/login/);

    const forged = await request.get("/dashboard", { maxRedirects: 0, headers: { cookie: "session=forged-token-value" } });
    expect(forged.status()).toBe(302);
    expect(forged.headers().location).toMatch(/^\/login/);
    expect(forged.headers()["set-cookie"]).toContain("session=;");

    const garbage = await request.get("/dashboard", { maxRedirects: 0, headers: { cookie: `session=${"%".repeat(300)}; lng=%%%` } });
    expect(garbage.status()).toBe(302);

    await context.addCookies([{ name: "session", value: "x".repeat(64), url: "http://localhost:3210" }]);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  });
});

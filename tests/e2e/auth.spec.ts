import { expect, test } from "./fixtures";
import { forgetSignUpLimit, forgetVerification } from "./database";
import { DEMO_PASSWORD, demo, signIn, signOut, signUp, submitSignIn, uniqueEmail } from "./helpers";
import { verificationLink, waitForMail, waitForMails } from "./mail";

test.describe("accounts", () => {
  test("sign up, read the mail, confirm the address and land on the dashboard, signed in", async ({ page }) => {
    const email = uniqueEmail("ada");
    await forgetSignUpLimit();
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Ada Lovelace");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("a-long-enough-passphrase");
    await page.getByLabel("Repeat password").fill("a-long-enough-passphrase");
    await expect(page).toHaveTitle("Create account · KeyLedger");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
    // The tab says so too (one title, not the form's left over), while the reader is in their mail.
    await expect(page).toHaveTitle("Check your inbox · KeyLedger");
    expect(await page.locator("title").count()).toBe(1);
    await expect(page.getByTestId("signup-sent")).toContainText(`We sent a mail to ${email}`);
    // Not signed in until the address is confirmed.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/);

    const mail = await waitForMail(email);
    expect(mail.subject).toBe("Confirm your e-mail address for KeyLedger");
    const link = verificationLink(mail);
    await page.goto(link.pathname + link.search);
    await expect(page.getByTestId("verify-email")).toContainText(email);
    // The link alone is not enough: the password chosen at sign-up is asked for (focused), and a
    // wrong one is refused without using the link up.
    const password = page.getByLabel("Enter the password you chose when signing up");
    await expect(password).toBeFocused();
    await password.fill("not-the-chosen-passphrase");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await expect(page.getByTestId("verify-email")).toContainText("The password is incorrect.");
    await page.getByLabel("Enter the password you chose when signing up").fill("a-long-enough-passphrase");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Ada Lovelace");
    await expect(page.getByRole("link", { name: "Create an organization" })).toBeVisible();
    await page.getByLabel("Account menu").click();
    await expect(page.getByText(email)).toBeVisible();

    // The link worked once.
    await page.goto(link.pathname + link.search);
    await expect(page.getByTestId("verify-email")).toContainText("This link does not work anymore");
    await expect(page.getByRole("button", { name: "Confirm and continue" })).toHaveCount(0);
  });

  test("a taken address gets the same answer as a free one; its owner gets a mail instead", async ({ page }) => {
    await forgetSignUpLimit();
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Someone");
    await page.getByLabel("E-mail address").fill(demo.acmeOwner);
    await page.getByLabel("Password", { exact: true }).fill("a-long-enough-passphrase");
    await page.getByLabel("Repeat password").fill("a-different-passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("The passwords do not match.")).toBeVisible();
    await page.getByLabel("Repeat password").fill("a-long-enough-passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
    await expect(page.getByTestId("signup-sent")).toContainText(`We sent a mail to ${demo.acmeOwner}`);
    await expect(page.getByText("already exists")).toHaveCount(0);
    const [note] = await waitForMails(demo.acmeOwner, {
      matching: (m) => m.subject === "Someone tried to sign up for KeyLedger with your address",
    });
    expect(note?.text).toContain("/forgot-password");
    // The demo owner's account is untouched: the demo password still signs in.
    await signIn(page, demo.acmeOwner);
  });

  test("an unverified account is asked to confirm its address before creating an organization", async ({ page }) => {
    const email = uniqueEmail("unverified");
    await forgetSignUpLimit();
    await page.goto("/signup");
    await page.getByLabel("Your name").fill("Una Verified");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("a-long-enough-passphrase");
    await page.getByLabel("Repeat password").fill("a-long-enough-passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Check your inbox" })).toBeVisible();
    // The password chosen at sign-up does not sign in before the address is confirmed, with the
    // message a wrong password gets: otherwise signing up and signing in would tell a free address
    // from a taken one.
    await submitSignIn(page, email, "a-long-enough-passphrase");
    await expect(page.getByRole("alert")).toHaveText("The e-mail address or password is incorrect.");
    const first = verificationLink(await waitForMail(email));
    await page.goto(first.pathname + first.search);
    await page.getByLabel("Enter the password you chose when signing up").fill("a-long-enough-passphrase");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    // An account signed in with its address not proven (as sessions from before verification were).
    await forgetVerification(email);
    await page.goto("/dashboard/organizations/new");
    const notice = page.getByTestId("verify-address-notice");
    await expect(notice).toContainText(`Confirm your e-mail address (${email}) to create organizations`);
    await expect(page.getByLabel("Organization name")).toHaveCount(0);
    await notice.getByRole("button", { name: "Send the link again" }).click();
    await expect(notice).toContainText(`A new link is on its way to ${email}`);
    // The newest link confirms; the page then offers the form.
    const link = verificationLink((await waitForMails(email, { count: 2 }))[1]!);
    expect(link.search).not.toBe(first.search);
    await page.goto(link.pathname + link.search);
    await page.getByLabel("Enter the password you chose when signing up").fill("a-long-enough-passphrase");
    await page.getByRole("button", { name: "Confirm and continue" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/dashboard/organizations/new");
    await expect(page.getByLabel("Organization name")).toBeVisible();
    await expect(page.getByTestId("verify-address-notice")).toHaveCount(0);
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

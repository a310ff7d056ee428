// The account page against the built app, in both languages: see the sessions of one account
// signed in from two browsers, end the other one, change the password (the wrong current password
// refused first) and sign in with the new one.
import type { Browser } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signUp, submitSignIn } from "./helpers";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1";

const TEXT = {
  en: {
    nav: "Account",
    heading: "Account",
    sessions: "Where you are signed in",
    thisSession: "This session",
    phone: "Safari on iOS",
    signOut: "Sign out the session of Safari on iOS",
    signedOut: "The session was signed out.",
    current: "Current password",
    new: "New password",
    again: "New password again",
    change: "Change password",
    wrong: "The current password is incorrect.",
    changed: "Your password was changed. 0 other sessions were signed out.",
    none: "You are not signed in anywhere else.",
  },
  de: {
    nav: "Konto",
    heading: "Konto",
    sessions: "Wo Sie angemeldet sind",
    thisSession: "Diese Sitzung",
    phone: "Safari unter iOS",
    signOut: "Sitzung von Safari unter iOS abmelden",
    signedOut: "Die Sitzung wurde abgemeldet.",
    current: "Aktuelles Passwort",
    new: "Neues Passwort",
    again: "Neues Passwort wiederholen",
    change: "Passwort ändern",
    wrong: "Das aktuelle Passwort ist falsch.",
    changed: "Ihr Passwort wurde geändert. 0 andere Sitzungen wurden abgemeldet.",
    none: "Sie sind nirgendwo sonst angemeldet.",
  },
} as const;

async function phoneSignedIn(browser: Browser, email: string, password: string) {
  const context = await browser.newContext({ userAgent: IPHONE });
  const page = await context.newPage();
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
  return { context, page };
}

for (const language of ["en", "de"] as const) {
  const text = TEXT[language];
  test(`end another session and change the password (${language})`, async ({ page, browser }) => {
    // Five password hashes or checks (argon2, on purpose slow) in one test.
    test.slow();
    const user = await signUp(page);
    const phone = await phoneSignedIn(browser, user.email, user.password);
    await page.context().addCookies([{ name: "lng", value: language, url: page.url() }]);
    await page.goto("/dashboard");
    await page.getByRole("navigation").getByRole("link", { name: text.nav, exact: true }).first().click();
    await expect(page).toHaveURL(/\/dashboard\/account$/);
    await expect(page.getByRole("heading", { name: text.heading, level: 1 })).toBeVisible();

    const sessions = page.getByTestId("account-sessions").getByRole("listitem");
    await expect(sessions).toHaveCount(2);
    await expect(sessions.first()).toContainText(text.thisSession);
    await expect(sessions.nth(1)).toContainText(text.phone);
    await page.getByRole("button", { name: text.signOut }).click();
    await expect(page.getByRole("status")).toContainText(text.signedOut);
    await expect(sessions).toHaveCount(1);
    await expect(page.getByText(text.none)).toBeVisible();
    // The phone is signed out: its next page asks it to sign in.
    await phone.page.reload();
    await expect(phone.page).toHaveURL(/\/login/);
    await phone.context.close();

    const newPassword = "a-brand-new-passphrase";
    await page.getByLabel(text.current).fill("not-the-password");
    await page.getByLabel(text.new, { exact: true }).fill(newPassword);
    await page.getByLabel(text.again).fill(newPassword);
    await page.getByRole("button", { name: text.change }).click();
    await expect(page.getByText(text.wrong)).toBeVisible();

    await page.getByLabel(text.current).fill(user.password);
    await page.getByLabel(text.new, { exact: true }).fill(newPassword);
    await page.getByLabel(text.again).fill(newPassword);
    await page.getByRole("button", { name: text.change }).click();
    await expect(page.getByRole("status")).toContainText(text.changed);
    await expect(page.getByLabel(text.current)).toHaveValue("");

    // The old password no longer signs in; the new one does.
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await submitSignIn(other, user.email, user.password);
    await expect(other).toHaveURL(/\/login$/);
    await submitSignIn(other, user.email, newPassword);
    await expect(other).toHaveURL(/\/dashboard$/);
    await fresh.close();
  });
}

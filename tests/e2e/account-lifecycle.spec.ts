// The account's life in the browser, in both languages: forget the password, reset it through the
// mailed link and sign in with the new one; then delete the account (a wrong confirmation refused
// first) and find that its password no longer signs in.
import { expect, test } from "./fixtures";
import { signUp, submitSignIn } from "./helpers";
import { resetLink, waitForMails } from "./mail";

const TEXT = {
  en: {
    forgot: "Forgot your password?",
    email: "E-mail address",
    send: "Send reset link",
    sent: "If an account exists for",
    subject: "Reset your KeyLedger password",
    newPassword: "New password",
    again: "New password again",
    set: "Set new password",
    changed: "Your password was changed",
    used: "This link does not work anymore.",
    deleteHeading: "Delete account",
    password: "Password",
    confirm: "to confirm",
    deleteButton: "Delete my account",
    mismatch: "Type your account's e-mail address exactly to confirm.",
    deleted: "Your account was deleted.",
  },
  de: {
    forgot: "Passwort vergessen?",
    email: "E-Mail-Adresse",
    send: "Link senden",
    sent: "Falls ein Konto für",
    subject: "Ihr KeyLedger-Passwort zurücksetzen",
    newPassword: "Neues Passwort",
    again: "Neues Passwort wiederholen",
    set: "Neues Passwort festlegen",
    changed: "Ihr Passwort wurde geändert",
    used: "Dieser Link funktioniert nicht mehr.",
    deleteHeading: "Konto löschen",
    password: "Passwort",
    confirm: "zur Bestätigung",
    deleteButton: "Mein Konto löschen",
    mismatch: "Geben Sie zur Bestätigung genau die E-Mail-Adresse Ihres Kontos ein.",
    deleted: "Ihr Konto wurde gelöscht.",
  },
} as const;

for (const language of ["en", "de"] as const) {
  const text = TEXT[language];
  test(`reset a forgotten password by e-mail, then delete the account (${language})`, async ({ page, browser }) => {
    test.slow();
    const user = await signUp(page);
    const anonymous = await browser.newContext();
    const visitor = await anonymous.newPage();
    await anonymous.addCookies([{ name: "lng", value: language, url: page.url() }]);

    await visitor.goto("/login");
    await visitor.getByRole("link", { name: text.forgot }).click();
    await expect(visitor).toHaveURL(/\/forgot-password$/);
    await visitor.getByLabel(text.email).fill(user.email);
    await visitor.getByRole("button", { name: text.send }).click();
    await expect(visitor.getByRole("status")).toContainText(`${text.sent} ${user.email}`);

    // The second mail to the address: the first confirmed it at sign-up.
    const mail = (await waitForMails(user.email, { count: 2 }))[1]!;
    expect(mail.subject).toBe(text.subject);
    const link = resetLink(mail);
    await visitor.goto(`${link.pathname}${link.search}`);
    const newPassword = "a-freshly-reset-passphrase";
    await visitor.getByLabel(text.newPassword, { exact: true }).fill(newPassword);
    await visitor.getByLabel(text.again).fill(newPassword);
    await visitor.getByRole("button", { name: text.set }).click();
    await expect(visitor).toHaveURL(/\/login\?notice=passwordReset$/);
    await expect(visitor.getByRole("status").first()).toContainText(text.changed);
    // The link worked once.
    await visitor.goto(`${link.pathname}${link.search}`);
    await expect(visitor.getByText(text.used)).toBeVisible();

    // The reset signed the first browser out too; the new password signs in.
    await page.reload();
    await expect(page).toHaveURL(/\/login/);
    await submitSignIn(page, user.email, newPassword);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.context().addCookies([{ name: "lng", value: language, url: page.url() }]);

    await page.goto("/dashboard/account");
    const danger = page.locator("#delete-account");
    await expect(danger.getByRole("heading", { name: text.deleteHeading })).toBeVisible();
    await danger.getByLabel(text.password, { exact: true }).fill(newPassword);
    await danger.getByLabel(text.confirm).fill("someone-else@e2e.test");
    await danger.getByRole("button", { name: text.deleteButton }).click();
    await expect(danger.getByText(text.mismatch)).toBeVisible();
    await danger.getByLabel(text.password, { exact: true }).fill(newPassword);
    await danger.getByLabel(text.confirm).fill(user.email);
    await danger.getByRole("button", { name: text.deleteButton }).click();
    await expect(page).toHaveURL(/\/login\?notice=accountDeleted$/);
    await expect(page.getByRole("status").first()).toContainText(text.deleted);

    await page.context().clearCookies();
    await submitSignIn(page, user.email, newPassword);
    await expect(page).toHaveURL(/\/login$/);
    await anonymous.close();
  });
}

// Issue 9, end to end against the built app, in English and in German: Acme's owner invites a new
// address, the invitation mail (read from the e2e server's outbox) is in the owner's page language
// and carries the link, the invitee opens it in their own browser, signs up on the way and joins,
// the owner makes them an admin and removes them again through the confirm dialog (focus, name,
// Esc). Then the same without JavaScript, through the `?confirm=` view.
// Acme is shared with the other specs (and the two workers): these tests touch only their own
// invitee, never counts. Sign-ups are rate limited per address, so the owner signs in instead.
import { randomUUID } from "node:crypto";
import { type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { demo, rpc, signIn } from "./helpers";
import { invitationLink, waitForMail } from "./mail";

const MEMBERS_PATH = "/dashboard/organization-settings/members";
const ORGANIZATION = "Acme";
const OWNER_NAME = "Olivia Owner";
const PASSWORD = "a-long-enough-passphrase";

/** A fresh invitee per test: an address nobody has used, and a name to find their row by. */
function newInvitee(label: string, firstName: string) {
  const id = randomUUID().slice(0, 8);
  return { email: `invitee-${label}-${id}@example.com`, name: `${firstName} ${id}` };
}

/** What the pages and the mail say, copied from app/i18n/locales/{en,de}/*.ts. */
const TEXT = {
  en: {
    locale: "en-US",
    membersHeading: "Members",
    inviteEmail: "E-mail address",
    inviteRole: "Role",
    member: "Member",
    admin: "Admin",
    sendInvitation: "Send invitation",
    sent: (email: string) => `Invitation sent to ${email}.`,
    invitedBy: `Invited by ${OWNER_NAME}.`,
    mailSent: "Mail sent",
    mailSubject: `${OWNER_NAME} invited you to ${ORGANIZATION} on KeyLedger`,
    mailBody: `${OWNER_NAME} invited you to join ${ORGANIZATION} on KeyLedger as Member.`,
    mailLinkIntro: "Open this link to accept:",
    mailAction: "Accept the invitation",
    acceptHeading: "Join an organization",
    acceptBody: `${OWNER_NAME} invited you to join ${ORGANIZATION} as Member.`,
    forAddress: (email: string) => `This invitation is for ${email}.`,
    signInToAccept: "Sign in to accept",
    otherAccount: (email: string) => `You are signed in as ${demo.acmeOwner}, but this invitation is for ${email}.`,
    signInAs: (email: string) => `Sign in as ${email}`,
    createOne: "Create one",
    signupHeading: "Create your account",
    signupEmail: "E-mail address",
    yourName: "Your name",
    password: "Password",
    repeatPassword: "Repeat password",
    createAccount: "Create account",
    join: `Join ${ORGANIZATION}`,
    welcome: (name: string) => `Welcome, ${name}`,
    yourRole: "Your role: Member",
    noOrganization: "No organization yet",
    usedLink: "This invitation link is not valid.",
    roleOf: (name: string) => `Role of ${name}`,
    changeRole: "Change role",
    roleChanged: (name: string) => `${name} is now Admin.`,
    removeLink: (name: string) => `Remove: ${name}`,
    removeHeading: (name: string) => `Remove ${name}?`,
    removeBody: (name: string) =>
      `${name} loses access to this organization at once: its keys, settings and audit log. You can invite them again later.`,
    removeConfirm: "Remove member",
    removed: (name: string) => `${name} was removed from the organization.`,
  },
  de: {
    locale: "de-DE",
    membersHeading: "Mitglieder",
    inviteEmail: "E-Mail-Adresse",
    inviteRole: "Rolle",
    member: "Mitglied",
    admin: "Administrator",
    sendInvitation: "Einladung senden",
    sent: (email: string) => `Einladung an ${email} gesendet.`,
    invitedBy: `Eingeladen von ${OWNER_NAME}.`,
    mailSent: "E-Mail gesendet",
    mailSubject: `${OWNER_NAME} hat Sie zu ${ORGANIZATION} auf KeyLedger eingeladen`,
    mailBody: `${OWNER_NAME} hat Sie eingeladen, ${ORGANIZATION} auf KeyLedger als Mitglied beizutreten.`,
    mailLinkIntro: "Öffnen Sie diesen Link, um anzunehmen:",
    mailAction: "Einladung annehmen",
    acceptHeading: "Einer Organisation beitreten",
    acceptBody: `${OWNER_NAME} hat Sie eingeladen, ${ORGANIZATION} als Mitglied beizutreten.`,
    forAddress: (email: string) => `Diese Einladung gilt für ${email}.`,
    signInToAccept: "Anmelden, um anzunehmen",
    otherAccount: (email: string) => `Sie sind als ${demo.acmeOwner} angemeldet, die Einladung gilt aber für ${email}.`,
    signInAs: (email: string) => `Als ${email} anmelden`,
    createOne: "Konto anlegen",
    signupHeading: "Erstellen Sie Ihr Konto",
    signupEmail: "E-Mail-Adresse",
    yourName: "Ihr Name",
    password: "Passwort",
    repeatPassword: "Passwort wiederholen",
    createAccount: "Konto erstellen",
    join: `${ORGANIZATION} beitreten`,
    welcome: (name: string) => `Willkommen, ${name}`,
    yourRole: "Ihre Rolle: Mitglied",
    noOrganization: "Noch keine Organisation",
    usedLink: "Dieser Einladungslink ist nicht gültig.",
    roleOf: (name: string) => `Rolle von ${name}`,
    changeRole: "Rolle ändern",
    roleChanged: (name: string) => `${name} ist jetzt Administrator.`,
    removeLink: (name: string) => `Entfernen: ${name}`,
    removeHeading: (name: string) => `${name} entfernen?`,
    removeBody: (name: string) =>
      `${name} verliert sofort den Zugriff auf diese Organisation: Schlüssel, Einstellungen und Audit-Log. Sie können die Person später erneut einladen.`,
    removeConfirm: "Mitglied entfernen",
    removed: (name: string) => `${name} wurde aus der Organisation entfernt.`,
  },
} as const;

type Language = keyof typeof TEXT;

/** The members page in `lng` (which also sets the lng cookie, so the forms' answers and the mail
 * follow); with JavaScript, waits until React has hydrated it (the dialogs need it). */
async function gotoMembers(page: Page, lng: Language, { javaScript = true } = {}) {
  const response = await page.goto(`${MEMBERS_PATH}?lng=${lng}`);
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", lng);
  await expect(page.getByRole("heading", { level: 1, name: TEXT[lng].membersHeading })).toBeVisible();
  if (javaScript) await expect(page.getByTestId("members-page")).toHaveAttribute("data-hydrated", "true");
}

/** Invites `email` as a member through the form and checks the answer and the pending entry. */
async function invite(page: Page, lng: Language, email: string) {
  const text = TEXT[lng];
  await page.getByLabel(text.inviteEmail).fill(email);
  await page.getByLabel(text.inviteRole, { exact: true }).selectOption({ label: text.member });
  await page.getByRole("button", { name: text.sendInvitation }).click();
  await expect(page.getByRole("status").filter({ hasText: text.sent(email) })).toBeVisible();
  const pending = page.getByTestId(`invitation-${email}`);
  await expect(pending).toBeVisible();
  await expect(pending).toContainText(text.member);
  await expect(pending).toContainText(text.invitedBy);
}

/** Reads the invitation mail to `email` and checks it is in `lng`; returns its accept link. */
async function readInvitationMail(lng: Language, email: string, origin: string) {
  const text = TEXT[lng];
  const mail = await waitForMail(email);
  expect(mail.subject).toBe(text.mailSubject);
  expect(mail.text).toContain(text.mailBody);
  expect(mail.text).toContain(text.mailLinkIntro);
  const link = invitationLink(mail);
  expect(link.origin).toBe(origin);
  expect(link.pathname).toBe("/invitations/accept");
  expect(link.searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
  // The HTML part: the same language, the button, and the same link.
  expect(mail.html).toBeTruthy();
  const html = String(mail.html);
  expect(html).toContain(`<html lang="${lng}">`);
  expect(html).toContain(text.mailAction);
  expect(html).toContain(`href="${link.href}"`);
  return link;
}

/** A browser context of its own (the invitee's), watched for CSP violations like the fixture's. */
async function newWatchedContext(browser: Browser, options: BrowserContextOptions) {
  const context = await browser.newContext(options);
  const violations: string[] = [];
  context.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${message.location().url}: ${message.text()}`);
  });
  const page = await context.newPage();
  return {
    context,
    page,
    async close() {
      await context.close();
      expect(violations, "Content-Security-Policy violations in the invitee's browser").toEqual([]);
    },
  };
}

/** From the accept page, signed out: "Create one", sign up with the invited address filled in,
 * and come back to the same accept page. */
async function signUpFromAcceptPage(page: Page, lng: Language, link: URL, email: string, name: string) {
  const text = TEXT[lng];
  await page.goto(link.href);
  await expect(page.locator("html")).toHaveAttribute("lang", lng);
  await expect(page.getByRole("heading", { name: text.acceptHeading })).toBeVisible();
  const accept = page.getByTestId("accept-invitation");
  await expect(accept).toContainText(text.acceptBody);
  await expect(accept).toContainText(text.forAddress(email));
  await expect(accept.getByRole("link", { name: text.signInToAccept })).toBeVisible();
  await accept.getByRole("link", { name: text.createOne }).click();

  await expect(page).toHaveURL(/\/signup\?/);
  await expect(page.getByRole("heading", { name: text.signupHeading })).toBeVisible();
  await expect(page.getByLabel(text.signupEmail)).toHaveValue(email);
  await page.getByLabel(text.yourName).fill(name);
  await page.getByLabel(text.password, { exact: true }).fill(PASSWORD);
  await page.getByLabel(text.repeatPassword).fill(PASSWORD);
  await page.getByRole("button", { name: text.createAccount }).click();

  // Back on the page of the same invitation, now signed in with the invited address.
  await expect(page).toHaveURL(`${link.pathname}${link.search}`);
  await expect(page.getByRole("heading", { name: text.acceptHeading })).toBeVisible();
  await expect(page.getByRole("link", { name: text.createOne })).toHaveCount(0);
}

/** A removed member's session has lost Acme at once: its pages send them to a dashboard without
 * an organization (Acme was their only one), and the RPC list no longer has it. */
async function expectNoLongerMember(page: Page, lng: Language) {
  await page.goto(MEMBERS_PATH);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText(TEXT[lng].noOrganization, { exact: true })).toBeVisible();
  await expect(page.getByTestId("active-organization")).toHaveCount(0);
  const list = await rpc(page.request, "organization/list", {});
  expect(list.status).toBe(200);
  expect(list.json).toEqual([]);
}

for (const lng of ["en", "de"] as const) {
  test(`invite, read the mail, accept as the invitee, change the role, remove (${lng})`, async ({ page, browser, baseURL }) => {
    // Two browsers, two password hashings (sign-in, sign-up) and a mail round trip: about 15 s
    // alone, more while the other worker runs the rest of the suite.
    test.setTimeout(60_000);
    const text = TEXT[lng];
    const { email, name } = newInvitee(lng, "Ivo Invitee");

    const { link, invitee } = await test.step("invite, read the mail", async () => {
      await signIn(page, demo.acmeOwner);
      await gotoMembers(page, lng);
      await invite(page, lng, email);
      // The mail, in the owner's page language, with the link to this server.
      const link = await readInvitationMail(lng, email, new URL(baseURL!).origin);
      await page.reload();
      await expect(page.getByTestId(`invitation-${email}`)).toContainText(text.mailSent);
      // The owner following the link is the wrong account: no way to join, only to switch.
      await page.goto(link.href);
      const accept = page.getByTestId("accept-invitation");
      await expect(accept).toContainText(text.otherAccount(email));
      await expect(accept.getByRole("link", { name: text.signInAs(email) })).toHaveAttribute(
        "href",
        `/login?redirectTo=${encodeURIComponent(link.pathname + link.search)}`,
      );
      await expect(accept.getByRole("button")).toHaveCount(0);
      // The invitee uses a browser of their own, its language from Accept-Language.
      return { link, invitee: await newWatchedContext(browser, { locale: text.locale }) };
    });

    await test.step("accept as the invitee", async () => {
      await signUpFromAcceptPage(invitee.page, lng, link, email, name);
      await invitee.page.getByRole("button", { name: text.join }).click();
      await expect(invitee.page).toHaveURL(/\/dashboard$/);
      await expect(invitee.page.getByRole("heading", { level: 1 })).toHaveText(text.welcome(name));
      await expect(invitee.page.getByTestId("active-organization")).toHaveText(ORGANIZATION);
      await expect(invitee.page.getByText(text.yourRole, { exact: true })).toBeVisible();
      // The link has done its work: the same 404 as any unknown link.
      expect((await invitee.page.goto(link.href))?.status()).toBe(404);
      await expect(invitee.page.getByTestId("accept-invitation")).toContainText(text.usedLink);
      await expect(invitee.page.getByRole("button", { name: text.join })).toHaveCount(0);
    });

    const row = page.getByTestId(`member-${email}`);
    await test.step("change the role", async () => {
      // The owner sees a member where the invitation was.
      await gotoMembers(page, lng);
      await expect(page.getByTestId(`invitation-${email}`)).toHaveCount(0);
      await expect(row).toContainText(name);
      const role = row.getByRole("combobox", { name: text.roleOf(name) });
      await expect(role).toHaveValue("member");
      // To admin: the page says so, and a reload shows it stored.
      await role.selectOption({ label: text.admin });
      await row.getByRole("button", { name: text.changeRole }).click();
      await expect(page.getByRole("status").filter({ hasText: text.roleChanged(name) })).toBeVisible();
      await gotoMembers(page, lng);
      await expect(row.getByRole("combobox", { name: text.roleOf(name) })).toHaveValue("admin");
    });

    await test.step("remove, confirmed in the dialog", async () => {
      // The dialog is named by its heading, described by its text, and has the focus.
      const trigger = row.getByRole("link", { name: text.removeLink(name) });
      await trigger.click();
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveAccessibleName(text.removeHeading(name));
      await expect(dialog).toHaveAccessibleDescription(text.removeBody(name));
      await expect.poll(() => dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
      // Esc closes it without removing anyone, and the focus is back on the link that opened it.
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);
      await expect(trigger).toBeFocused();
      await expect(row).toBeVisible();
      // Opened again from the keyboard, and confirmed.
      await page.keyboard.press("Enter");
      await expect(dialog).toHaveAccessibleName(text.removeHeading(name));
      await dialog.getByRole("button", { name: text.removeConfirm }).click();
      await expect(page.getByRole("status").filter({ hasText: text.removed(name) })).toBeVisible();
      await expect(dialog).toHaveCount(0);
      await expect(row).toHaveCount(0);
      await gotoMembers(page, lng);
      await expect(row).toHaveCount(0);
    });

    await expectNoLongerMember(invitee.page, lng);
    await invitee.close();
  });
}

test("without JavaScript: invite, accept, change the role and remove through the confirm view", async ({ browser, baseURL }) => {
  const owner = await newWatchedContext(browser, { javaScriptEnabled: false });
  const page = owner.page;
  const { email, name } = newInvitee("nojs", "Nora No-Script");

  await signIn(page, demo.acmeOwner);
  await gotoMembers(page, "en", { javaScript: false });
  await expect(page.locator("script[type=module]").first()).toBeAttached(); // it would hydrate, but cannot
  await invite(page, "en", email);
  const link = await readInvitationMail("en", email, new URL(baseURL!).origin);

  // The invitee has no JavaScript either: sign-up and accept are plain forms.
  const invitee = await newWatchedContext(browser, { javaScriptEnabled: false, locale: "en-US" });
  await signUpFromAcceptPage(invitee.page, "en", link, email, name);
  await invitee.page.getByRole("button", { name: TEXT.en.join }).click();
  await expect(invitee.page).toHaveURL(/\/dashboard$/);
  await expect(invitee.page.getByTestId("active-organization")).toHaveText(ORGANIZATION);

  await gotoMembers(page, "en", { javaScript: false });
  const row = page.getByTestId(`member-${email}`);
  await row.getByRole("combobox", { name: `Role of ${name}` }).selectOption("admin");
  await row.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${name} is now Admin.` })).toBeVisible();
  await expect(row.getByRole("combobox", { name: `Role of ${name}` })).toHaveValue("admin");

  // Remove leads to the confirm view; its "Keep member" goes back and changes nothing.
  const trigger = row.getByRole("link", { name: `Remove: ${name}` });
  await trigger.click();
  await expect(page).toHaveURL(/\?confirm=remove&user=[0-9a-f-]{36}$/);
  const userId = new URL(page.url()).searchParams.get("user")!;
  const panel = page.getByTestId("confirm-panel");
  await expect(panel.getByRole("heading", { name: `Remove ${name}?` })).toBeVisible();
  await expect(panel).toContainText(TEXT.en.removeBody(name));
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await panel.getByRole("link", { name: "Keep member" }).click();
  await expect(page).toHaveURL(new RegExp(`${MEMBERS_PATH}$`));
  await expect(page.getByTestId("confirm-panel")).toHaveCount(0);
  await expect(row).toBeVisible();

  // Again, and confirm: the form posts, the page says so, the member is gone.
  await trigger.click();
  await page.getByTestId("confirm-panel").getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${name} was removed from the organization.` })).toBeVisible();
  await expect(page.getByTestId("confirm-panel")).toHaveCount(0);
  await expect(row).toHaveCount(0);

  // The confirm link of someone no longer there says so instead of failing.
  await page.goto(`${MEMBERS_PATH}?confirm=remove&user=${userId}`);
  await expect(page.getByRole("alert")).toHaveText("This person or invitation no longer exists here. The list below is current.");
  await expect(page.getByTestId("confirm-panel")).toHaveCount(0);

  await expectNoLongerMember(invitee.page, "en");
  await invitee.close();
  await owner.close();
});

test("without JavaScript, canceling an invitation is confirmed on its own view", async ({ browser }) => {
  const owner = await newWatchedContext(browser, { javaScriptEnabled: false });
  const page = owner.page;
  const { email } = newInvitee("cancel", "Carla Cancel");
  await signIn(page, demo.acmeOwner);
  await gotoMembers(page, "en", { javaScript: false });
  await invite(page, "en", email);
  await page
    .getByTestId(`invitation-${email}`)
    .getByRole("link", { name: `Cancel invitation: ${email}` })
    .click();
  await expect(page).toHaveURL(/confirm=cancel/);
  const panel = page.getByTestId("confirm-panel");
  await expect(panel).toContainText(`Cancel the invitation for ${email}?`);
  await panel.getByRole("button", { name: "Cancel invitation" }).click();
  await expect(page.getByText(`The invitation for ${email} was canceled.`)).toBeVisible();
  await expect(page.getByTestId(`invitation-${email}`)).toHaveCount(0);
  await owner.close();
});

// Members and invitations end to end, in English and German, against the built app: an owner
// invites by e-mail, the mail (written to the e2e server's outbox) carries the link, the invitee
// signs up on the way and joins, the owner changes their role and removes them (confirmed in an
// accessible dialog). Also the same confirmation without JavaScript.
import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createOrganization, signUp, uniqueEmail } from "./helpers";
import { acceptLink, mailsTo } from "./outbox";

const MEMBERS_PATH = "/dashboard/organization-settings/members";

const TEXT = {
  en: {
    locale: "en-US",
    email: "E-mail address",
    invite: "Send invitation",
    sent: (email: string) => `Invitation sent to ${email}.`,
    subject: (org: string) => `Ines Inviter invited you to ${org} on KeyLedger`,
    body: "as Member",
    acceptHeading: "Join an organization",
    createAccount: "Create one",
    name: "Your name",
    password: "Password",
    repeat: "Repeat password",
    signUp: "Create account",
    join: (org: string) => `Join ${org}`,
    roleFor: (name: string) => `Role of ${name}`,
    changeRole: "Change role",
    roleChanged: (name: string) => `${name} is now Admin.`,
    admin: "Admin",
    remove: (name: string) => `Remove: ${name}`,
    removeHeading: (name: string) => `Remove ${name}?`,
    confirmRemove: "Remove member",
    removed: (name: string) => `${name} was removed from the organization.`,
  },
  de: {
    locale: "de-DE",
    email: "E-Mail-Adresse",
    invite: "Einladung senden",
    sent: (email: string) => `Einladung an ${email} gesendet.`,
    subject: (org: string) => `Ines Inviter hat Sie zu ${org} auf KeyLedger eingeladen`,
    body: "als Mitglied beizutreten",
    acceptHeading: "Einer Organisation beitreten",
    createAccount: "Konto anlegen",
    name: "Ihr Name",
    password: "Passwort",
    repeat: "Passwort wiederholen",
    signUp: "Konto erstellen",
    join: (org: string) => `${org} beitreten`,
    roleFor: (name: string) => `Rolle von ${name}`,
    changeRole: "Rolle ändern",
    roleChanged: (name: string) => `${name} ist jetzt Administrator.`,
    admin: "Administrator",
    remove: (name: string) => `Entfernen: ${name}`,
    removeHeading: (name: string) => `${name} entfernen?`,
    confirmRemove: "Mitglied entfernen",
    removed: (name: string) => `${name} wurde aus der Organisation entfernt.`,
  },
} as const;

async function gotoMembers(page: Page, lng: string) {
  await page.goto(`${MEMBERS_PATH}?lng=${lng}`);
  await expect(page.locator('[data-testid="members-page"][data-hydrated="true"]')).toBeVisible();
}

async function ownerWithOrganization(page: Page, label: string) {
  await signUp(page, { name: "Ines Inviter" });
  const organization = `${label} ${Date.now().toString(36)}`;
  await createOrganization(page, organization);
  return organization;
}

async function inviteByForm(page: Page, lng: keyof typeof TEXT, email: string) {
  const text = TEXT[lng];
  await page.getByLabel(text.email).fill(email);
  await page.getByRole("button", { name: text.invite }).click();
  await expect(page.getByText(text.sent(email))).toBeVisible();
  await expect(page.getByTestId(`invitation-${email}`)).toBeVisible();
}

async function acceptAsNewAccount(browser: Browser, lng: keyof typeof TEXT, link: string, email: string, name: string) {
  const text = TEXT[lng];
  const context = await browser.newContext({ locale: text.locale });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: text.acceptHeading })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("link", { name: text.createAccount }).click();
  await expect(page).toHaveURL(/\/signup\?/);
  // The invited address is filled in.
  await expect(page.getByLabel(text.email)).toHaveValue(email);
  await page.getByLabel(text.name).fill(name);
  await page.getByLabel(text.password, { exact: true }).fill("a-long-enough-passphrase");
  await page.getByLabel(text.repeat).fill("a-long-enough-passphrase");
  await page.getByRole("button", { name: text.signUp }).click();
  // Back on the accept page, now signed in with the invited address.
  await expect(page).toHaveURL(/\/invitations\/accept\?token=/);
  return { context, page };
}

for (const lng of ["en", "de"] as const) {
  test(`invite, read the mail, accept as the invitee, change the role, remove (${lng})`, async ({ page, browser }) => {
    const text = TEXT[lng];
    const organization = await ownerWithOrganization(page, `Invite ${lng}`);
    await gotoMembers(page, lng);
    const email = uniqueEmail(`invitee-${lng}`);
    await inviteByForm(page, lng, email);

    const [mail, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(text.subject(organization));
    expect(mail!.text).toContain(text.body);
    const link = acceptLink(mail!);
    expect(mail!.html).toContain(link.replace(/&/g, "&amp;"));

    const invitee = await acceptAsNewAccount(browser, lng, link, email, `Ivo ${lng}`);
    await invitee.page.getByRole("button", { name: text.join(organization) }).click();
    await expect(invitee.page).toHaveURL(/\/dashboard$/);
    await expect(invitee.page.getByTestId("active-organization")).toHaveText(organization);
    await invitee.context.close();

    // The owner sees the new member, with the invited role.
    await gotoMembers(page, lng);
    await expect(page.getByTestId(`invitation-${email}`)).toHaveCount(0);
    const row = page.getByTestId(`member-${email}`);
    const role = row.getByLabel(text.roleFor(`Ivo ${lng}`));
    await expect(role).toHaveValue("member");
    await role.selectOption("admin");
    await row.getByRole("button", { name: text.changeRole }).click();
    await expect(page.getByText(text.roleChanged(`Ivo ${lng}`))).toBeVisible();
    await page.reload();
    await expect(page.getByTestId(`member-${email}`).getByLabel(text.roleFor(`Ivo ${lng}`))).toHaveValue("admin");

    // Remove, confirmed in a dialog: focus moves in, Esc closes it and returns the focus.
    await expect(page.locator('[data-testid="members-page"][data-hydrated="true"]')).toBeVisible();
    const trigger = page.getByTestId(`member-${email}`).getByRole("link", { name: text.remove(`Ivo ${lng}`) });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: text.removeHeading(`Ivo ${lng}`) });
    await expect(dialog).toBeVisible();
    await expect.poll(() => dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(trigger).toBeFocused();
    await trigger.click();
    await dialog.getByRole("button", { name: text.confirmRemove }).click();
    await expect(page.getByText(text.removed(`Ivo ${lng}`))).toBeVisible();
    await expect(page.getByTestId(`member-${email}`)).toHaveCount(0);
  });
}

test("without JavaScript, canceling an invitation is confirmed on its own view", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await ownerWithOrganization(page, "No JS");
  await page.goto(MEMBERS_PATH);
  const email = uniqueEmail("nojs");
  await inviteByForm(page, "en", email);
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
  await context.close();
});

// Expiry reminders (docs/decisions/0058-expiry-reminders.md) on real PostgreSQL and a real SMTP
// server: owners and admins get one mail 7 days and one 1 day before a key expires, each once even
// with two planners and two workers at the same time, in their own language; members get none; a
// key revoked, rotated or given another expiry after planning, an organization deleted or a person
// deleted meanwhile, an already expired key: no mail. The planner is given its moment (`now`), so
// a key issued now is seen as it will be days from now.
import { afterAll, describe, expect, it } from "vitest";
import { startMailServer } from "../smtp";

// Before anything reads the configuration.
const mail = await startMailServer();
process.env.SMTP_URL = mail.url;
process.env.APP_ORIGIN = "https://keys.example.com";

const { prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { planExpiryReminders } = await import("~/expiry-reminders/planner.server");
const { expiryReminderTasks } = await import("~/expiry-reminders/tasks.server");
const { authorizeOrganization } = await import("~/access/organization-access.server");
const { deleteOrganization } = await import("~/organizations/organizations.server");
const { deleteAccount } = await import("~/accounts/account-deletion.server");
const { createOrganizationWith, createUser, signedIn, TEST_PASSWORD } = await import("../factories");
const { issueKey, revokeKey, rotateKey } = await import("../domain-calls");

afterAll(() => mail.stop());

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** An organization with an owner who reads German, an admin who reads English, and a member. */
async function team() {
  const owner = await createUser({ name: "Olga Owner" });
  const admin = await createUser({ name: "Adam Admin" });
  const member = await createUser({ name: "Mia Member" });
  await prisma.user.update({ where: { id: owner.id }, data: { language: "de" } });
  await prisma.user.update({ where: { id: admin.id }, data: { language: "en" } });
  const organization = await createOrganizationWith([
    { userId: owner.id, role: "owner" },
    { userId: admin.id, role: "admin" },
    { userId: member.id, role: "member" },
  ]);
  const { auth } = await signedIn(owner.id, organization.id);
  return { owner, admin, member, organization, auth };
}

type Team = Awaited<ReturnType<typeof team>>;

async function keyExpiringIn(t: Team, ms: number, name = "CI deploy") {
  const { key } = await issueKey(t.auth, t.organization.id, { name, scopes: ["audit:view"], expiresAt: new Date(Date.now() + ms) });
  return { ...key, expiresAt: new Date(key.expiresAt!) };
}

/** A moment inside a kind's window, one hour after it opened. */
const sevenDaysBefore = (expiresAt: Date) => new Date(expiresAt.getTime() - 7 * DAY + HOUR);
const oneDayBefore = (expiresAt: Date) => new Date(expiresAt.getTime() - DAY + HOUR);

const mailsTo = (address: string) =>
  mail.messages.filter((m) => [m.to ?? []].flat().some((to) => to.value.some((v) => v.address?.toLowerCase() === address.toLowerCase())));

const remindersOf = (organizationId: string) =>
  prisma.apiKeyExpiryReminder.findMany({ where: { organizationId }, select: { kind: true, expiresAt: true, prefix: true } });

/** Runs every due mail job; runDueJobs resolves once each has sent (or decided not to). */
const sendDue = () => runDueJobs(expiryReminderTasks);

describe("expiry reminders", () => {
  it("mails owners and admins once 7 days and once 1 day before, in their language, with two planners and two workers at once", async () => {
    const t = await team();
    const key = await keyExpiringIn(t, 10 * DAY);
    const at7 = sevenDaysBefore(key.expiresAt);

    // Before the window: nothing.
    await planExpiryReminders(new Date(at7.getTime() - 2 * HOUR));
    expect(await remindersOf(t.organization.id)).toEqual([]);

    // Two planners at the same moment: one reminder, one mail job per owner and admin.
    const [a, b] = await Promise.all([planExpiryReminders(at7), planExpiryReminders(at7)]);
    expect(a.mails + b.mails).toBe(2);
    expect(await remindersOf(t.organization.id)).toEqual([{ kind: "seven_days", expiresAt: key.expiresAt, prefix: key.prefix }]);
    await Promise.all([sendDue(), sendDue()]);
    // Later runs of the planner inside the same window plan nothing more.
    await planExpiryReminders(new Date(at7.getTime() + 15 * 60 * 1000));
    await planExpiryReminders(new Date(at7.getTime() + 3 * DAY));
    await sendDue();

    const [toOwner] = mailsTo(t.owner.email);
    const [toAdmin] = mailsTo(t.admin.email);
    expect(mailsTo(t.owner.email)).toHaveLength(1);
    expect(mailsTo(t.admin.email)).toHaveLength(1);
    expect(mailsTo(t.member.email)).toHaveLength(0);
    const date = key.expiresAt.toISOString().slice(0, 16).replace("T", " ");
    expect(toOwner!.subject).toBe(`API-Schlüssel „CI deploy“ von ${t.organization.name} läuft in 7 Tagen ab`);
    expect(toOwner!.text).toContain("Hallo Olga Owner,");
    expect(toOwner!.text).toContain(`(${key.prefix}…) von ${t.organization.name} läuft am ${date} UTC ab.`);
    expect(toAdmin!.subject).toBe(`API key “CI deploy” of ${t.organization.name} expires in 7 days`);
    expect(toAdmin!.text).toContain("Hello Adam Admin,");
    expect(toAdmin!.text).toContain(`(${key.prefix}…) of ${t.organization.name} expires on ${date} UTC.`);
    const link = `https://keys.example.com/dashboard/organizations/${t.organization.id}/api-keys?q=${encodeURIComponent(key.prefix)}`;
    expect(toAdmin!.text).toContain(link);
    expect(toAdmin!.html).toContain(`href="${link}"`);
    expect(toAdmin!.messageId).toBe(`<api-key-expiry-${(await reminderIds(t.organization.id))[0]}-${t.admin.id}@keyledger>`);

    // The day before: the 1-day mail, once each, also with two planners.
    const at1 = oneDayBefore(key.expiresAt);
    await Promise.all([planExpiryReminders(at1), planExpiryReminders(at1)]);
    await Promise.all([sendDue(), sendDue()]);
    await planExpiryReminders(new Date(at1.getTime() + 12 * HOUR));
    await sendDue();
    expect(mailsTo(t.owner.email).map((m) => m.subject)).toEqual([
      `API-Schlüssel „CI deploy“ von ${t.organization.name} läuft in 7 Tagen ab`,
      `API-Schlüssel „CI deploy“ von ${t.organization.name} läuft in 1 Tag ab`,
    ]);
    expect(mailsTo(t.admin.email).map((m) => m.subject)).toEqual([
      `API key “CI deploy” of ${t.organization.name} expires in 7 days`,
      `API key “CI deploy” of ${t.organization.name} expires in 1 day`,
    ]);
    expect(mailsTo(t.member.email)).toHaveLength(0);
    expect((await remindersOf(t.organization.id)).map((r) => r.kind).sort()).toEqual(["one_day", "seven_days"]);
  });

  it("writes English to a person whose language was never stored", async () => {
    const t = await team();
    await prisma.user.update({ where: { id: t.owner.id }, data: { language: null } });
    const key = await keyExpiringIn(t, 10 * DAY);
    await planExpiryReminders(sevenDaysBefore(key.expiresAt));
    await sendDue();
    expect(mailsTo(t.owner.email).map((m) => m.subject)).toEqual([`API key “CI deploy” of ${t.organization.name} expires in 7 days`]);
  });

  it("sends nothing for a key revoked after the reminder was planned", async () => {
    const t = await team();
    const key = await keyExpiringIn(t, 10 * DAY);
    await planExpiryReminders(sevenDaysBefore(key.expiresAt));
    await revokeKey(t.auth, t.organization.id, key.id);
    await sendDue();
    expect(mailsTo(t.owner.email)).toHaveLength(0);
    expect(mailsTo(t.admin.email)).toHaveLength(0);
    // Nor later: a revoked key is never planned.
    await planExpiryReminders(oneDayBefore(key.expiresAt));
    await sendDue();
    expect(mailsTo(t.admin.email)).toHaveLength(0);
  });

  it("sends nothing for the old secret of a key rotated after planning; the next reminder names the new one", async () => {
    const t = await team();
    const key = await keyExpiringIn(t, 10 * DAY);
    await planExpiryReminders(sevenDaysBefore(key.expiresAt));
    const { key: rotated } = await rotateKey(t.auth, t.organization.id, key.id);
    await sendDue();
    expect(mailsTo(t.admin.email)).toHaveLength(0);
    // Rotating keeps the expiry (product rule 9): the key still expires, and the 1-day mail says so.
    await planExpiryReminders(oneDayBefore(key.expiresAt));
    await sendDue();
    const sent = mailsTo(t.admin.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`(${rotated.prefix}…)`);
    expect(sent[0]!.text).not.toContain(`(${key.prefix}…)`);
  });

  it("sends nothing for the old expiry when it changed after planning, and plans the new one", async () => {
    const t = await team();
    const key = await keyExpiringIn(t, 10 * DAY);
    const at7 = sevenDaysBefore(key.expiresAt);
    await planExpiryReminders(at7);
    const later = new Date(key.expiresAt.getTime() + 2 * DAY);
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: t.organization.id, id: key.id } },
      data: { expiresAt: later },
    });
    await sendDue();
    expect(mailsTo(t.admin.email)).toHaveLength(0);
    await planExpiryReminders(sevenDaysBefore(later));
    await sendDue();
    const sent = mailsTo(t.admin.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(`expires on ${later.toISOString().slice(0, 16).replace("T", " ")} UTC.`);
  });

  it("sends nothing, and does not fail, when the organization was deleted between planning and sending", async () => {
    const t = await team();
    const key = await keyExpiringIn(t, 10 * DAY);
    await planExpiryReminders(sevenDaysBefore(key.expiresAt));
    const access = await authorizeOrganization(t.auth, t.organization.id, "organization:delete");
    await deleteOrganization(access, t.auth, t.organization.name);
    expect(await prisma.apiKeyExpiryReminder.count({ where: { organizationId: t.organization.id } })).toBe(0);
    await sendDue();
    expect(mailsTo(t.owner.email)).toHaveLength(0);
    expect(mailsTo(t.admin.email)).toHaveLength(0);
    // The jobs completed (none kept with an error for a retry).
    const [left] = await prisma.$queryRaw<{ jobs: number }[]>`
      SELECT count(*)::int AS jobs FROM graphile_worker.jobs WHERE key LIKE 'api-key-expiry-reminder:%'`;
    expect(left!.jobs).toBe(0);
  });

  it("sends nothing to a person deleted, or no longer an admin, between planning and sending", async () => {
    const t = await team();
    const key = await keyExpiringIn(t, 10 * DAY);
    await planExpiryReminders(sevenDaysBefore(key.expiresAt));
    const { auth: adminAuth } = await signedIn(t.admin.id, t.organization.id);
    await deleteAccount(adminAuth, { password: TEST_PASSWORD, confirm: t.admin.email });
    await prisma.membership.update({
      where: { organizationId_userId: { organizationId: t.organization.id, userId: t.owner.id } },
      data: { role: "member" },
    });
    await sendDue();
    expect(mailsTo(t.admin.email)).toHaveLength(0);
    expect(mailsTo(t.owner.email)).toHaveLength(0);
  });

  it("sends no late reminder for a key that has expired, nor the 7-day one once the 1-day one is due", async () => {
    const t = await team();
    const key = await keyExpiringIn(t, 10 * DAY);
    // The planner was down for days: it first runs after the expiry.
    await planExpiryReminders(new Date(key.expiresAt.getTime() + HOUR));
    expect(await remindersOf(t.organization.id)).toEqual([]);
    // Or first runs 12 hours before it: the 1-day mail alone.
    await planExpiryReminders(new Date(key.expiresAt.getTime() - 12 * HOUR));
    expect((await remindersOf(t.organization.id)).map((r) => r.kind)).toEqual(["one_day"]);
    await sendDue();
    expect(mailsTo(t.admin.email).map((m) => m.subject)).toEqual([`API key “CI deploy” of ${t.organization.name} expires in 1 day`]);
  });

  it("plans only the reminders whose window opened after the key was issued", async () => {
    const t = await team();
    // Issued with 3 days left: no 7-day mail, the 1-day one still.
    const short = await keyExpiringIn(t, 3 * DAY, "three days");
    // Issued with 12 hours left: its issuer just chose that; no mail at all.
    const shorter = await keyExpiringIn(t, 12 * HOUR, "twelve hours");
    await planExpiryReminders(new Date());
    await planExpiryReminders(oneDayBefore(short.expiresAt));
    expect(await remindersOf(t.organization.id)).toEqual([{ kind: "one_day", expiresAt: short.expiresAt, prefix: short.prefix }]);
    expect(shorter.state).toBe("active");
    await sendDue();
    expect(mailsTo(t.admin.email).map((m) => m.subject)).toEqual([`API key “three days” of ${t.organization.name} expires in 1 day`]);
  });
});

async function reminderIds(organizationId: string): Promise<string[]> {
  const rows = await prisma.apiKeyExpiryReminder.findMany({ where: { organizationId }, select: { id: true } });
  return rows.map((r) => r.id);
}

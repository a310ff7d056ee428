// The account's life on real PostgreSQL and a real SMTP server: "forgot password" (the same answer
// and the same work for unknown addresses, a hashed single-use short-lived link sent by the job
// queue, every session ended on use, rate limited) and deleting the account (proof required, sole-
// member organizations deleted, owners promoted by the system actor, nothing left that names the
// person, two deletions at once).
import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "~/generated/prisma/enums";
import { startMailServer } from "../smtp";
import { failure } from "../failure";
import { newHashedLinkToken } from "~/lib/link-token";
import { queryOnce } from "../../scripts/lib/pg-client";

const mail = await startMailServer();
process.env.SMTP_URL = mail.url;

const { prisma, pool } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { accountTasks } = await import("~/accounts/tasks.server");
const reset = await import("~/accounts/password-reset.server");
const { deleteAccount } = await import("~/accounts/account-deletion.server");
const { signIn } = await import("~/auth/sign-in.server");
const { validateSessionToken } = await import("~/auth/session.server");
const { totpFor, currentStep } = await import("~/auth/two-factor.server");
const { recordAuditEvent, userActor } = await import("~/audit/record.server");
const { listAuditEvents } = await import("~/audit/query.server");
const { exportedRows } = await import("../domain-calls");
const { parseAuditSearchParams } = await import("~/audit/audit-query");
const { consume } = await import("~/lib/rate-limit.server");
const { authorizeOrganization } = await import("~/access/organization-access.server");
const { createOrganizationWith, createUser, signedIn, TEST_PASSWORD, TEST_TOTP_KEY } = await import("../factories");
const { callRpc } = await import("../api-key-factories");

afterAll(() => mail.stop());
beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

const delivery = { language: "en" as const, origin: "https://keys.example.com" };
const NEW_PASSWORD = "a-brand-new-long-password";
const deliverMail = () => runDueJobs(accountTasks);
const jobCount = async () => Number((await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs`)[0]!.n);
/** Rows of a table across every organization, read as the tables' owner (not the app's role, whose
 * statements tests/statements holds to naming an organization). */
const countAll = async (table: string, where = "true", values: unknown[] = []) =>
  Number(
    (await queryOnce<{ n: string }>(process.env.DATABASE_URL!, `SELECT count(*) AS n FROM ${table} WHERE ${where}`, values)).rows[0]!.n,
  );
const auditEventCount = () => countAll("audit_events");

function resetTokenFrom(text: string | undefined): string {
  const match = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text ?? "");
  if (!match) throw new Error(`no reset link in: ${text}`);
  return match[1]!;
}

async function mailedToken(email: string, nth = 1): Promise<string> {
  await deliverMail();
  const received = await mail.waitFor(email, nth);
  expect(received).toHaveLength(nth);
  return resetTokenFrom(received[nth - 1]!.text);
}

describe("forgot password", () => {
  it("answers and works the same for unknown addresses, and mails a link only to an account", async () => {
    const user = await createUser({ name: "Rita Reset" });
    const unknown = `nobody-${randomUUID()}@example.test`;
    const before = await jobCount();
    await expect(reset.requestPasswordReset(unknown, "10.1.0.1", delivery)).resolves.toBeUndefined();
    await expect(reset.requestPasswordReset(user.email, "10.1.0.1", delivery)).resolves.toBeUndefined();
    // One job each: an observer cannot tell them apart by what the request does.
    expect(await jobCount()).toBe(before + 2);
    const events = await auditEventCount();
    await deliverMail();
    const [received] = await mail.waitFor(user.email);
    expect(received!.subject).toBe("Reset your KeyLedger password");
    expect(received!.text).toContain("Hello Rita Reset,");
    expect(received!.html).toContain("https://keys.example.com/reset-password?token=");
    expect(await mail.waitFor(unknown, 1, 300)).toHaveLength(0);
    expect(await auditEventCount()).toBe(events);
    // The token itself is nowhere in the database: only its SHA-256.
    const token = resetTokenFrom(received!.text);
    const stored = await prisma.passwordReset.findUniqueOrThrow({ where: { userId: user.id } });
    expect(stored.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const dump = await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM password_resets p WHERE p::text LIKE ${`%${token}%`}`;
    expect(Number(dump[0]!.n)).toBe(0);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(reset.RESET_LINK_LIFETIME);
  });

  it("sets the new password once, ends every session, and the link never works again", async () => {
    const user = await createUser();
    const sessions = [await signedIn(user.id), await signedIn(user.id)];
    await reset.requestPasswordReset(user.email, "10.1.0.2", delivery);
    const token = await mailedToken(user.email);
    expect(await reset.resetLinkWorks(token)).toBe(true);
    await reset.resetPassword(token, NEW_PASSWORD);
    for (const { token: sessionToken } of sessions) expect(await validateSessionToken(sessionToken)).toBeNull();
    await expect(signIn({ email: user.email, password: TEST_PASSWORD }, "10.1.0.3")).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(signIn({ email: user.email, password: NEW_PASSWORD }, "10.1.0.4")).resolves.toBeTruthy();
    // Used: the same answer as any other dead link, and nothing changes.
    expect(await reset.resetLinkWorks(token)).toBe(false);
    expect(await failure(reset.resetPassword(token, "yet-another-long-password"))).toMatchObject({
      code: "BAD_REQUEST",
      messageKey: "passwordReset.invalidLink",
    });
    await expect(signIn({ email: user.email, password: NEW_PASSWORD }, "10.1.0.5")).resolves.toBeTruthy();
  });

  it("refuses expired, replaced, malformed and deleted-account links", async () => {
    const user = await createUser();
    await reset.requestPasswordReset(user.email, "10.1.0.6", delivery);
    const first = await mailedToken(user.email);
    await reset.requestPasswordReset(user.email, "10.1.0.6", delivery);
    const second = await mailedToken(user.email, 2);
    // Asking again replaced the first link.
    expect(await reset.resetLinkWorks(first)).toBe(false);
    expect(await reset.resetLinkWorks(second)).toBe(true);
    await prisma.passwordReset.update({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await reset.resetLinkWorks(second)).toBe(false);
    for (const token of [first, second, "", "x".repeat(43), "%00", second.toUpperCase() + "A"]) {
      expect((await failure(reset.resetPassword(token, NEW_PASSWORD))).code).toBe("BAD_REQUEST");
    }
    // A live link whose account was deleted since.
    await reset.requestPasswordReset(user.email, "10.1.0.6", delivery);
    const third = await mailedToken(user.email, 3);
    expect(await reset.resetLinkWorks(third)).toBe(true);
    await prisma.user.delete({ where: { id: user.id } });
    expect(await reset.resetLinkWorks(third)).toBe(false);
    expect((await failure(reset.resetPassword(third, NEW_PASSWORD))).code).toBe("BAD_REQUEST");
  });

  it("keeps the newest link when two mails' jobs finish in the other order", async () => {
    const user = await createUser();
    const older = newHashedLinkToken();
    const newer = newHashedLinkToken();
    const now = Date.now();
    await reset.storeResetToken(user.id, newer.hash, new Date(now));
    await reset.storeResetToken(user.id, older.hash, new Date(now - 5_000));
    expect(await reset.resetLinkWorks(newer.token)).toBe(true);
    expect(await reset.resetLinkWorks(older.token)).toBe(false);
  });

  it("lets exactly one of two simultaneous uses of a link through", async () => {
    const user = await createUser();
    await reset.requestPasswordReset(user.email, "10.1.0.7", delivery);
    const token = await mailedToken(user.email);
    const results = await Promise.allSettled([
      reset.resetPassword(token, "first-long-enough-password"),
      reset.resetPassword(token, "second-long-enough-password"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const winner = results[0]!.status === "fulfilled" ? "first-long-enough-password" : "second-long-enough-password";
    await expect(signIn({ email: user.email, password: winner }, "10.1.0.8")).resolves.toBeTruthy();
  });

  it("is limited per address asked for, known or not, and per client address", async () => {
    const user = await createUser();
    const unknown = `nobody-${randomUUID()}@example.test`;
    for (const email of [user.email, unknown]) {
      for (let i = 0; i < 3; i++) await reset.requestPasswordReset(email, `10.2.${i}.1`, delivery);
      expect(await failure(reset.requestPasswordReset(email, "10.2.9.9", delivery))).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    }
    for (let i = 0; i < 20; i++) await reset.requestPasswordReset(`a${i}-${randomUUID()}@example.test`, "10.3.0.1", delivery);
    expect(await failure(reset.requestPasswordReset(user.email + ".other", "10.3.0.1", delivery))).toMatchObject({
      code: "TOO_MANY_REQUESTS",
    });
  });

  it("writes the mail in the asker's language and lifts a sign-in lockout when used", async () => {
    const user = await createUser({ name: "Grete" });
    for (let i = 0; i < 10; i++) await consume("auth.signin.account", user.email).catch(() => undefined);
    await expect(signIn({ email: user.email, password: TEST_PASSWORD }, "10.4.0.1")).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    await reset.requestPasswordReset(user.email, "10.4.0.2", { ...delivery, language: "de" });
    await deliverMail();
    const [received] = await mail.waitFor(user.email);
    expect(received!.subject).toBe("Ihr KeyLedger-Passwort zurücksetzen");
    expect(received!.text).toContain("Hallo Grete,");
    await reset.resetPassword(resetTokenFrom(received!.text), NEW_PASSWORD);
    await expect(signIn({ email: user.email, password: NEW_PASSWORD }, "10.4.0.3")).resolves.toBeTruthy();
  });
});

const totpNow = () => totpFor(TEST_TOTP_KEY, currentStep());
const RECOVERY_CODE = "abcd-efgh-ijkl-mnop";
/** hashRecoveryCode's rule: SHA-256 hex of the code lowercased, letters and digits only. */
const RECOVERY_HASH = createHash("sha256").update("abcdefghijklmnop").digest("hex");
const confirmOf = (user: { email: string }) => ({ password: TEST_PASSWORD, confirm: user.email });
const stale = <T extends { auth: { session: { authenticatedAt: Date } } }>(s: T): T => ({
  ...s,
  auth: { ...s.auth, session: { ...s.auth.session, authenticatedAt: new Date(Date.now() - 60 * 60 * 1000) } },
});

/** Every table (the app's and the job queue's) with a row whose text mentions `needle`. */
async function rowsMentioning(needle: string): Promise<string[]> {
  const tables = await prisma.$queryRaw<{ name: string }[]>`
    SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
    WHERE table_schema IN ('public', 'graphile_worker') AND table_type = 'BASE TABLE'`;
  const found: string[] = [];
  for (const { name } of tables) {
    if ((await countAll(`${name} t`, "t::text ILIKE $1", [`%${needle}%`])) > 0) found.push(name);
  }
  return found;
}

describe("deleting an account", () => {
  it("asks for a recent sign-in, the typed address, the password and the second factor, and changes nothing otherwise", async () => {
    const user = await createUser({ twoFactor: true });
    const org = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const session = await signedIn(user.id, org.id, { twoFactorVerified: true });
    const refusals: [Parameters<typeof deleteAccount>, string][] = [
      [[stale(session).auth, { ...confirmOf(user), code: totpNow() }], "freshSessionRequired"],
      [[session.auth, { ...confirmOf(user), confirm: "someone@else.test", code: totpNow() }], "account.confirmEmailMismatch"],
      [[session.auth, { ...confirmOf(user), password: "not-the-password", code: totpNow() }], "account.passwordIncorrect"],
      [[session.auth, confirmOf(user)], "account.codeRequired"],
      [[session.auth, { ...confirmOf(user), code: "000000" }], "twoFactor.invalidCode"],
      [[session.auth, { ...confirmOf(user), code: "aaaa-bbbb-cccc-dddd" }], "twoFactor.invalidCode"],
    ];
    for (const [args, message] of refusals) expect((await failure(deleteAccount(...args))).messageKey).toBe(message);
    expect(await prisma.user.count({ where: { id: user.id } })).toBe(1);
    expect(await prisma.organization.count({ where: { id: org.id } })).toBe(1);
    expect(await validateSessionToken(session.token)).not.toBeNull();

    // The typed address is compared without case or surrounding spaces.
    await deleteAccount(session.auth, { ...confirmOf(user), confirm: ` ${user.email.toUpperCase()} `, code: totpNow() });
    expect(await prisma.user.count({ where: { id: user.id } })).toBe(0);
    expect(await validateSessionToken(session.token)).toBeNull();
  });

  it("takes a recovery code as the second factor, and a refused deletion uses no code up", async () => {
    const user = await createUser({ twoFactor: true });
    await prisma.recoveryCode.create({ data: { userId: user.id, codeHash: RECOVERY_HASH } });
    const session = await signedIn(user.id, null, { twoFactorVerified: true });
    const before = await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { lastTotpStep: true } });
    // Right codes, wrong password: nothing is spent.
    for (const code of [RECOVERY_CODE, totpNow()]) {
      expect((await failure(deleteAccount(session.auth, { ...confirmOf(user), password: "not-the-password", code }))).messageKey).toBe(
        "account.passwordIncorrect",
      );
    }
    expect(await prisma.recoveryCode.count({ where: { userId: user.id, usedAt: null } })).toBe(1);
    expect(await prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { lastTotpStep: true } })).toEqual(before);
    await deleteAccount(session.auth, { ...confirmOf(user), code: ` ${RECOVERY_CODE.toUpperCase()} ` });
    expect(await prisma.user.count({ where: { id: user.id } })).toBe(0);
  });

  it("does not deadlock with the same account's reset link or invitation being used at that moment", async () => {
    // Replays the other side's statements in their order with a second connection: a reset takes
    // its link's row, then the account's; an accept takes the invitation's row, then inserts the
    // membership (which locks the account's row for key share).
    for (const other of ["reset", "accept"] as const) {
      const user = await createUser();
      const own = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
      const inviting = await createOrganizationWith([{ userId: (await createUser()).id, role: "owner" }]);
      const invitation = await prisma.invitation.create({
        data: { organizationId: inviting.id, email: user.email, role: "member", expiresAt: new Date(Date.now() + 86_400_000) },
      });
      await reset.storeResetToken(user.id, newHashedLinkToken().hash, new Date());
      const { auth } = await signedIn(user.id, own.id);
      const client = await pool().connect();
      try {
        await client.query("BEGIN");
        if (other === "reset") await client.query("DELETE FROM password_resets WHERE user_id = $1", [user.id]);
        else
          await client.query("SELECT 1 FROM invitations WHERE organization_id = $1 AND id = $2 FOR UPDATE", [inviting.id, invitation.id]);
        const deletion = deleteAccount(auth, confirmOf(user)).then(
          () => "deleted",
          (error: unknown) => error,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (other === "reset") await client.query("UPDATE users SET password_hash = password_hash WHERE id = $1", [user.id]);
        else
          await client.query("INSERT INTO memberships (id, organization_id, user_id, role) VALUES (gen_random_uuid(), $1, $2, 'member')", [
            inviting.id,
            user.id,
          ]);
        await client.query("COMMIT");
        expect(await deletion, other).toBe("deleted");
      } finally {
        client.release();
      }
      expect(await prisma.user.count({ where: { id: user.id } })).toBe(0);
      // The membership that appeared at the last moment went with the account, like the others.
      expect(await prisma.membership.count({ where: { userId: user.id } })).toBe(0);
    }
  });

  it("deletes organizations where they were the only member, with their audit log, and records nothing", async () => {
    const user = await createUser();
    const alone = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: alone.id,
        action: "organization.settings_changed",
        actor: userActor(user),
        target: { type: "organization", id: alone.id },
        details: { name: { from: "a", to: "b" } },
      }),
    );
    const before = await auditEventCount();
    const { auth } = await signedIn(user.id, alone.id);
    expect(await deleteAccount(auth, confirmOf(user))).toEqual({ deletedOrganizations: 1, promotedOwners: 0 });
    expect(await prisma.organization.count({ where: { id: alone.id } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { organizationId: alone.id } })).toBe(0);
    expect(await auditEventCount()).toBe(before - 1);
  });

  it("makes the longest-standing admin (else member) owner, recorded by the system actor, without member.removed", async () => {
    const leaving = await createUser();
    const [oldMember, oldAdmin, newAdmin] = [await createUser(), await createUser(), await createUser()];
    const withAdmins = await createOrganizationWith([{ userId: leaving.id, role: "owner" }]);
    const onlyMembers = await createOrganizationWith([{ userId: leaving.id, role: "owner" }]);
    const coOwned = await createOrganizationWith([{ userId: leaving.id, role: "owner" }]);
    const asMember = await createOrganizationWith([{ userId: oldAdmin.id, role: "owner" }]);
    const join = (organizationId: string, userId: string, role: Role, daysAgo: number) =>
      prisma.membership.create({ data: { organizationId, userId, role, createdAt: new Date(Date.now() - daysAgo * 86_400_000) } });
    await join(withAdmins.id, oldMember.id, "member", 30);
    await join(withAdmins.id, oldAdmin.id, "admin", 20);
    await join(withAdmins.id, newAdmin.id, "admin", 10);
    await join(onlyMembers.id, newAdmin.id, "member", 5);
    await join(onlyMembers.id, oldMember.id, "member", 6);
    await join(coOwned.id, oldAdmin.id, "owner", 1);
    await join(asMember.id, leaving.id, "member", 1);

    const { auth } = await signedIn(leaving.id, withAdmins.id);
    expect(await deleteAccount(auth, confirmOf(leaving))).toEqual({ deletedOrganizations: 0, promotedOwners: 2 });

    const roleOf = async (organizationId: string, userId: string) =>
      (await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId, userId } } }))?.role;
    expect(await roleOf(withAdmins.id, oldAdmin.id)).toBe("owner");
    expect(await roleOf(withAdmins.id, newAdmin.id)).toBe("admin");
    expect(await roleOf(withAdmins.id, oldMember.id)).toBe("member");
    expect(await roleOf(onlyMembers.id, oldMember.id)).toBe("owner");
    expect(await roleOf(onlyMembers.id, newAdmin.id)).toBe("member");

    const eventsIn = (organizationId: string) => prisma.auditEvent.findMany({ where: { organizationId } });
    expect(await eventsIn(withAdmins.id)).toMatchObject([
      {
        action: "member.role_changed",
        actorKind: "system",
        actorId: "account-deletion",
        targetType: "user",
        targetId: oldAdmin.id,
        details: { from: "admin", to: "owner", automatic: true },
      },
    ]);
    expect(await eventsIn(onlyMembers.id)).toMatchObject([{ targetId: oldMember.id, details: { from: "member", to: "owner" } }]);
    // Another owner stayed, or they were a plain member: their membership just goes.
    expect(await eventsIn(coOwned.id)).toEqual([]);
    expect(await eventsIn(asMember.id)).toEqual([]);
    expect(await prisma.membership.count({ where: { userId: leaving.id } })).toBe(0);
    expect(await countAll("audit_events", "action = 'member.removed' AND target_id = $1", [leaving.id])).toBe(0);
  });

  it("leaves nothing that names them; their events keep the opaque id and read as a deleted user", async () => {
    const marker = randomUUID().slice(0, 8);
    const leaving = await createUser({ name: `Zelda ${marker}`, email: `zelda-${marker}@example.test`, twoFactor: true });
    const owner = await createUser();
    const org = await createOrganizationWith([
      { userId: owner.id, role: "owner" },
      { userId: leaving.id, role: "admin" },
    ]);
    const elsewhere = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
    // Traces of the person: events they caused, an invitation they sent, one addressed to them,
    // recovery codes, a reset link, sessions with device details, rate-limit counters.
    await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: org.id,
        action: "organization.settings_changed",
        actor: userActor(leaving),
        target: { type: "organization", id: org.id },
        details: { name: { from: "x", to: "y" } },
      }),
    );
    const sent = await prisma.invitation.create({
      data: {
        organizationId: org.id,
        email: `invitee-${marker}x@example.test`,
        role: "member",
        invitedById: leaving.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    const toThem = await prisma.invitation.create({
      data: {
        organizationId: elsewhere.id,
        email: leaving.email,
        role: "member",
        invitedById: owner.id,
        expiresAt: new Date(Date.now() + 86_400_000),
      },
    });
    // Its mail was refused for good: the job keeps the mail server's answer, quoting the address.
    await prisma.$queryRaw`SELECT 1 AS added FROM graphile_worker.add_job('send-invitation-mail', '{}'::json, job_key => ${`invitation-mail:${toThem.id}`}, run_at => now() + interval '1 day')`;
    await prisma.$executeRaw`UPDATE graphile_worker._private_jobs SET last_error = ${`550 <${leaving.email}>: rejected`} WHERE key = ${`invitation-mail:${toThem.id}`}`;
    await prisma.recoveryCode.create({ data: { userId: leaving.id, codeHash: "f".repeat(64) } });
    await reset.requestPasswordReset(leaving.email, "10.5.0.1", delivery);
    await deliverMail();
    // A second reset mail still waiting in the queue when the account goes.
    await reset.requestPasswordReset(leaving.email, "10.5.0.2", delivery);
    await consume("auth.signin.account", leaving.email);
    const session = await signedIn(leaving.id, org.id, { twoFactorVerified: true });
    expect((await rowsMentioning(marker)).length).toBeGreaterThan(2);

    await deleteAccount(session.auth, { ...confirmOf(leaving), code: totpNow() });

    // The invitation they sent stays with the organization (its own address), no longer naming them.
    expect(
      await prisma.invitation.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.id, id: sent.id } } }),
    ).toMatchObject({ invitedById: null });
    const mentions = await rowsMentioning(marker);
    expect(mentions.filter((table) => table !== "public.invitations")).toEqual([]);
    expect(await countAll("invitations", "email LIKE $1", [`%zelda-${marker}%`])).toBe(0);
    expect(await rowsMentioning(leaving.id).then((tables) => tables.sort())).toEqual([
      "public.audit_event_actors",
      "public.audit_event_users",
      "public.audit_events",
    ]);

    // The view and the export show the event with the opaque id and no name.
    const ownerSession = await signedIn(owner.id, org.id);
    const reader = await authorizeOrganization(ownerSession.auth, org.id, "audit:view");
    const query = parseAuditSearchParams(new URLSearchParams());
    const page = await listAuditEvents(reader, query);
    expect(page.events.find((e) => e.actorId === leaving.id)).toMatchObject({ actorKind: "user", actor: { name: null } });
    await prisma.organization.update({ where: { id: org.id }, data: { planId: "enterprise" } });
    for (const nameDirectoryLimit of [undefined, 0]) {
      const { rows } = await exportedRows(ownerSession.auth, org.id, {}, { nameDirectoryLimit });
      expect(rows.find((r) => r.actorId === leaving.id)).toMatchObject({ actorName: null });
    }
  });

  it("two owners' simultaneous deletions both succeed and every surviving organization keeps an owner", async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b, c] = [await createUser(), await createUser(), await createUser()];
      const shared = await createOrganizationWith([{ userId: a.id, role: "owner" }]);
      await prisma.membership.create({
        data: { organizationId: shared.id, userId: b.id, role: "admin", createdAt: new Date(Date.now() - 2000) },
      });
      await prisma.membership.create({
        data: { organizationId: shared.id, userId: c.id, role: "admin", createdAt: new Date(Date.now() - 1000) },
      });
      // Each also owns an organization where the other is an admin: the locks cross.
      const ofA = await createOrganizationWith([
        { userId: a.id, role: "owner" },
        { userId: b.id, role: "admin" },
        { userId: c.id, role: "member" },
      ]);
      const ofB = await createOrganizationWith([
        { userId: b.id, role: "owner" },
        { userId: a.id, role: "admin" },
        { userId: c.id, role: "member" },
      ]);
      const [sa, sb] = [await signedIn(a.id, shared.id), await signedIn(b.id, shared.id)];
      const results = await Promise.allSettled([deleteAccount(sa.auth, confirmOf(a)), deleteAccount(sb.auth, confirmOf(b))]);
      expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
      for (const organization of [shared, ofA, ofB]) {
        const members = await prisma.membership.findMany({ where: { organizationId: organization.id } });
        expect(members).toEqual([expect.objectContaining({ userId: c.id, role: "owner" })]);
        // The events are true: each promotion names the role its target had, and ends at C.
        const events = await prisma.auditEvent.findMany({ where: { organizationId: organization.id }, orderBy: { id: "asc" } });
        expect(events.at(-1)).toMatchObject({ targetId: c.id, details: { to: "owner" } });
        for (const event of events) expect(event).toMatchObject({ action: "member.role_changed", actorKind: "system" });
      }
      const sharedEvents = await prisma.auditEvent.findMany({ where: { organizationId: shared.id }, orderBy: { id: "asc" } });
      // A went first (B promoted, then C when B left) or B did (only C promoted).
      expect([c.id, `${b.id},${c.id}`]).toContain(sharedEvents.map((e) => e.targetId).join(","));
      for (const event of sharedEvents) expect(event.details).toEqual({ from: "admin", to: "owner", automatic: true });
    }
  });

  it("is the account.delete procedure: refused inputs change nothing, success signs the session out", async () => {
    const user = await createUser();
    const org = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const { token } = await signedIn(user.id, org.id);
    const del = (input: unknown, headers?: Record<string, string>) => callRpc("account/delete", { sessionToken: token, input, headers });
    for (const input of [
      {},
      { password: TEST_PASSWORD },
      { password: TEST_PASSWORD, confirm: user.email, extra: 1 },
      { password: ["x"], confirm: user.email },
      { password: TEST_PASSWORD, confirm: "x".repeat(5000) },
      { password: TEST_PASSWORD, confirm: user.email, code: "9".repeat(100) },
      { password: "wrong-password-here", confirm: user.email },
      null,
    ]) {
      const answer = await del(input);
      expect(answer.status, JSON.stringify(input)).toBe(400);
      expect(answer.json.message).toBeTruthy();
    }
    expect((await del({ ...confirmOf(user) }, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(await prisma.user.count({ where: { id: user.id } })).toBe(1);
    expect(await del(confirmOf(user))).toMatchObject({ status: 200, json: {} });
    expect((await del(confirmOf(user))).status).toBe(401);
    expect(await prisma.organization.count({ where: { id: org.id } })).toBe(0);
  });
});

// Editing one's own name and address on real PostgreSQL and a real SMTP server
// (docs/decisions/0031-sign-up-policy-and-verified-addresses.md): the password first, a link to the
// new address that works once, for the same account only, the old address told afterwards, and a
// taken address answered like a free one (its mail says it has an account; nothing changes).
import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { failure } from "../failure";
import { linkToken, startMailServer } from "../smtp";
import { queryOnce } from "../../scripts/lib/pg-client";

const mail = await startMailServer();
process.env.SMTP_URL = mail.url;

const { prisma, pool } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { accountTasks } = await import("~/accounts/tasks.server");
const change = await import("~/accounts/email-change.server");
const { requestPasswordReset, resetPassword } = await import("~/accounts/password-reset.server");
const { createUser, signedIn, TEST_PASSWORD } = await import("../factories");

afterAll(() => mail.stop());
beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

const delivery = { language: "en" as const, origin: "https://keys.example.com" };
const deliverMail = () => runDueJobs(accountTasks);
const fresh = (prefix = "new") => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
const jobCount = async () => Number((await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs`)[0]!.n);
/** Events in every organization, read as the tables' owner (tests/statements holds the app's role to naming one). */
const auditEvents = async () =>
  Number((await queryOnce<{ n: string }>(process.env.DATABASE_URL!, "SELECT count(*) AS n FROM audit_events")).rows[0]!.n);

const confirmToken = (text: string | undefined) => linkToken(text, "/dashboard/account/confirm-email");

async function requested(newEmail = fresh()) {
  const user = await createUser({ name: "Carl Change" });
  const { auth } = await signedIn(user.id);
  await change.requestEmailChange(auth, { newEmail, currentPassword: TEST_PASSWORD }, delivery);
  await deliverMail();
  const [received] = await mail.waitFor(newEmail);
  return { user, auth, newEmail, token: confirmToken(received!.text), received: received! };
}

describe("the name", () => {
  it("changes at once and is no organization's audit event", async () => {
    const user = await createUser({ name: "Old Name" });
    const { auth } = await signedIn(user.id);
    const events = await auditEvents();
    await change.updateName(auth, "New Name");
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe("New Name");
    expect(await auditEvents()).toBe(events);
  });
});

describe("a change of address", () => {
  it("needs the current password and a new address, and changes nothing before the link is opened", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    const jobs = await jobCount();
    const wrong = await failure(change.requestEmailChange(auth, { newEmail: fresh(), currentPassword: "not-the-password" }, delivery));
    expect([wrong.code, wrong.messageKey]).toEqual(["BAD_REQUEST", "account.wrongPassword"]);
    const same = await failure(change.requestEmailChange(auth, { newEmail: user.email, currentPassword: TEST_PASSWORD }, delivery));
    expect([same.code, same.messageKey]).toEqual(["BAD_REQUEST", "emailChange.sameAddress"]);
    expect(await jobCount()).toBe(jobs);
  });

  it("mails a single-use link to the new address, moves the account when it is opened, and tells the old address", async () => {
    const { user, auth, newEmail, token, received } = await requested();
    expect(received.subject).toBe("Confirm your new e-mail address for KeyLedger");
    expect(received.text).toContain(newEmail);
    // Until it is opened, the address stays; only the token's hash is stored.
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
    const pending = await prisma.emailChange.findUniqueOrThrow({ where: { userId: user.id } });
    expect(pending).toMatchObject({ newEmail });
    expect(pending.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(pending.expiresAt.getTime() - pending.createdAt.getTime()).toBe(change.EMAIL_CHANGE_LINK_LIFETIME);
    const events = await auditEvents();

    await expect(change.confirmEmailChange(auth, token, delivery)).resolves.toBe(newEmail);
    const after = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.email).toBe(newEmail);
    expect(after.emailVerifiedAt).not.toBeNull();
    expect(await auditEvents()).toBe(events);
    await deliverMail();
    const [notice] = await mail.waitFor(user.email);
    expect(notice!.subject).toBe("Your KeyLedger address was changed");
    expect(notice!.text).toContain(newEmail);

    const reused = await failure(change.confirmEmailChange(auth, token, delivery));
    expect([reused.code, reused.messageKey]).toEqual(["BAD_REQUEST", "emailChange.invalidLink"]);
  });

  it("ends a password-reset link mailed to the old address: it would otherwise take over the moved account", async () => {
    const { user, auth, token } = await requested();
    const { passwordHash } = await prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    await requestPasswordReset(user.email, "10.8.0.1", delivery);
    await deliverMail();
    const resetMail = (await mail.waitFor(user.email)).find((m) => /reset-password\?token=/.test(m.text ?? ""));
    const resetToken = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(resetMail!.text ?? "")![1]!;
    await change.confirmEmailChange(auth, token, delivery);
    const stale = await failure(resetPassword(resetToken, "someone-elses-new-password"));
    expect([stale.code, stale.messageKey]).toEqual(["BAD_REQUEST", "passwordReset.invalidLink"]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).passwordHash).toBe(passwordHash);
  });

  it("refuses an expired or replaced link and another account's, changing nothing", async () => {
    const { user, auth, token } = await requested();
    const other = await createUser();
    const otherAuth = (await signedIn(other.id)).auth;
    const foreign = await failure(change.confirmEmailChange(otherAuth, token, delivery));
    expect([foreign.code, foreign.messageKey]).toEqual(["FORBIDDEN", "emailChange.otherAccount"]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: other.id } })).email).toBe(other.email);

    await prisma.emailChange.update({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await failure(change.confirmEmailChange(auth, token, delivery))).code).toBe("BAD_REQUEST");

    // A second request replaces the first link.
    const second = fresh();
    await change.requestEmailChange(auth, { newEmail: second, currentPassword: TEST_PASSWORD }, delivery);
    await deliverMail();
    const [mailed] = await mail.waitFor(second);
    expect((await failure(change.confirmEmailChange(auth, "A".repeat(43), delivery))).code).toBe("BAD_REQUEST");
    await expect(change.confirmEmailChange(auth, confirmToken(mailed!.text), delivery)).resolves.toBe(second);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(second);
  });

  it("answers a taken address like a free one; its mail says so and nothing changes", async () => {
    const owner = await createUser({ name: "Owen Owner" });
    const [taken, free] = [await createUser(), await createUser()];
    const freeAddress = fresh();
    for (const [user, newEmail] of [
      [taken, owner.email],
      [free, freeAddress],
    ] as const) {
      const jobs = await jobCount();
      const answer = await change.requestEmailChange(
        (await signedIn(user.id)).auth,
        { newEmail, currentPassword: TEST_PASSWORD },
        delivery,
      );
      expect(answer).toBeUndefined();
      expect(await jobCount()).toBe(jobs + 1);
    }
    await deliverMail();
    const [toOwner] = await mail.waitFor(owner.email);
    expect(toOwner!.subject).toBe("This address already has a KeyLedger account");
    expect(toOwner!.text).not.toMatch(/token=/);
    expect(await prisma.emailChange.findUnique({ where: { userId: taken.id } })).toBeNull();
    expect((await prisma.user.findUniqueOrThrow({ where: { id: taken.id } })).email).toBe(taken.email);
    const [toFree] = await mail.waitFor(freeAddress);
    expect(toFree!.subject).toBe("Confirm your new e-mail address for KeyLedger");
  });

  it("ends an earlier link alike whether the newer request names a taken or a free address", async () => {
    // Otherwise keeping a link to an address of one's own and then asking for another address would
    // tell, by whether the kept link still works, if that other address has an account.
    const owner = await createUser();
    for (const probed of [owner.email, fresh("unused")]) {
      const { auth, token } = await requested();
      await change.requestEmailChange(auth, { newEmail: probed, currentPassword: TEST_PASSWORD }, delivery);
      await deliverMail();
      await mail.waitFor(probed);
      const kept = await failure(change.confirmEmailChange(auth, token, delivery));
      expect([kept.code, kept.messageKey]).toEqual(["BAD_REQUEST", "emailChange.invalidLink"]);
    }
  });

  it("refuses with 409 when the new address got an account after the mail", async () => {
    const { user, auth, newEmail, token } = await requested();
    await createUser({ email: newEmail });
    const error = await failure(change.confirmEmailChange(auth, token, delivery));
    expect([error.code, error.messageKey]).toEqual(["CONFLICT", "emailChange.addressTaken"]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
  });

  it("is limited per account", async () => {
    const user = await createUser();
    const { auth } = await signedIn(user.id);
    for (let i = 0; i < 5; i++) await change.requestEmailChange(auth, { newEmail: fresh(), currentPassword: TEST_PASSWORD }, delivery);
    const error = await failure(change.requestEmailChange(auth, { newEmail: fresh(), currentPassword: TEST_PASSWORD }, delivery));
    expect(error.code).toBe("TOO_MANY_REQUESTS");
  });
});

// The verification link asks for the password chosen at sign-up (account pre-hijacking,
// docs/decisions/0031-sign-up-policy-and-verified-addresses.md): an attacker who signs up with
// someone's free address must not get the account when the owner confirms the unsolicited mail.
// A wrong password changes nothing and keeps the link usable; attempts count as failed sign-ins.
import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { failure } from "../failure";
import { linkToken, startMailServer } from "../smtp";

const mail = await startMailServer();
process.env.SMTP_URL = mail.url;

const { prisma, pool } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { accountTasks } = await import("~/accounts/tasks.server");
const { signUp } = await import("~/accounts/sign-up.server");
const { verifyEmail } = await import("~/accounts/email-verification.server");
const { requestPasswordReset, resetPassword } = await import("~/accounts/password-reset.server");
const { signIn } = await import("~/auth/sign-in.server");
const { createSession } = await import("~/auth/session.server");

afterAll(() => mail.stop());
beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

const delivery = { language: "en" as const, origin: "https://keys.example.com" };
const ATTACKERS = "the-attacker's-chosen-password";
const OWNERS = "the-owner's-own-password";
let counter = 0;
const client = () => `10.11.${Math.floor(++counter / 200)}.${counter % 200}`;

/** An attacker signs up with a free address (the victim's) and a password of their choosing. */
async function preHijacked() {
  const email = `victim-${randomUUID().slice(0, 8)}@example.test`;
  await signUp({ name: "Mallory", email, password: ATTACKERS }, { policy: { kind: "open" }, clientAddress: client(), delivery });
  await runDueJobs(accountTasks);
  const [received] = await mail.waitFor(email);
  const user = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true, email: true } });
  return { user, token: linkToken(received!.text, "/verify-email"), mailText: received!.text };
}

const stateOf = async (userId: string) => ({
  verifiedAt: (await prisma.user.findUniqueOrThrow({ where: { id: userId } })).emailVerifiedAt,
  sessions: await prisma.session.count({ where: { userId } }),
  links: await prisma.emailVerification.count({ where: { userId } }),
});

describe("confirming a verification link", () => {
  it("refuses a wrong password, changes nothing, and keeps the link usable", async () => {
    const { user, token, mailText } = await preHijacked();
    expect(mailText).toContain("If you did not sign up for KeyLedger, do not confirm anything and ignore this e-mail");
    // The owner, who never signed up, clicks "Confirm" with a password of their own: refused.
    for (const password of [OWNERS, "", ATTACKERS.toUpperCase()]) {
      const error = await failure(verifyEmail({ token, password }, null, client()));
      expect([error.code, error.messageKey]).toEqual(["BAD_REQUEST", "account.passwordIncorrect"]);
    }
    expect(await stateOf(user.id)).toEqual({ verifiedAt: null, sessions: 0, links: 1 });
    // The attacker's password still does not sign in: the address was never proven.
    expect((await failure(signIn({ email: user.email, password: ATTACKERS }, client()))).code).toBe("UNAUTHORIZED");
    // Whoever chose the password and holds the mailbox (a real sign-up with a typo) gets through.
    const result = await verifyEmail({ token, password: ATTACKERS }, null, client());
    expect(result).toMatchObject({ signedIn: true, twoFactorPending: false });
    const after = await stateOf(user.id);
    expect(after.verifiedAt).not.toBeNull();
    expect(after).toMatchObject({ sessions: 1, links: 0 });
  });

  it("counts wrong passwords as failed sign-ins: the account's limit stops even the right one", async () => {
    const { user, token } = await preHijacked();
    const from = client();
    for (let i = 0; i < 10; i++) {
      expect((await failure(verifyEmail({ token, password: `guess-${i}-wrong` }, null, from))).code).toBe("BAD_REQUEST");
    }
    const limited = await failure(verifyEmail({ token, password: ATTACKERS }, null, client()));
    expect([limited.code, limited.messageKey]).toEqual(["TOO_MANY_REQUESTS", "rateLimited"]);
    // The same counter as the sign-in form's: it is blocked there too.
    expect((await failure(signIn({ email: user.email, password: ATTACKERS }, client()))).code).toBe("TOO_MANY_REQUESTS");
    expect(await stateOf(user.id)).toEqual({ verifiedAt: null, sessions: 0, links: 1 });
  });

  it("clears the account's failures once the right password confirms", async () => {
    const { user, token } = await preHijacked();
    for (let i = 0; i < 3; i++) await failure(verifyEmail({ token, password: `typo-${i}` }, null, client()));
    await verifyEmail({ token, password: ATTACKERS }, null, client());
    const left = await pool().query("SELECT 1 FROM rate_limits WHERE key = $1", [`auth.signin.account:${user.email}`]);
    expect(left.rowCount).toBe(0);
  });

  it("lets the owner recover by password reset: verified, the attacker's sessions and password ended", async () => {
    const { user, token } = await preHijacked();
    // Suppose the attacker got a session some other way before the owner acted.
    await createSession(user.id, { twoFactorVerified: false });
    await requestPasswordReset(user.email, client(), delivery);
    await runDueJobs(accountTasks);
    const received = await mail.waitFor(user.email, 2);
    await resetPassword(linkToken(received[1]!.text, "/reset-password"), OWNERS);
    const after = await stateOf(user.id);
    expect(after.verifiedAt).not.toBeNull();
    expect(after.sessions).toBe(0);
    await expect(signIn({ email: user.email, password: OWNERS }, client())).resolves.toMatchObject({ twoFactorPending: false });
    expect((await failure(signIn({ email: user.email, password: ATTACKERS }, client()))).code).toBe("UNAUTHORIZED");
    // The link the attacker may still hold is useless without the owner's new password.
    const viaLink = await failure(verifyEmail({ token, password: ATTACKERS }, null, client()));
    expect(viaLink.messageKey).toMatch(/^(account\.passwordIncorrect|emailVerification\.invalidLink)$/);
  });
});

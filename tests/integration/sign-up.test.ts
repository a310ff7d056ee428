// Signing up on real PostgreSQL and a real SMTP server (docs/decisions/0031-sign-up-policy-and-verified-addresses.md):
// taken and free addresses answered and worked alike (the owner of a taken address is told
// instead), the policies, the limits, the verification link (single use, expiring, bound to
// its account and address), and organizations only for verified accounts.
import { randomUUID } from "node:crypto";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { failure } from "../failure";
import { linkToken, startMailServer } from "../smtp";

const mail = await startMailServer();
process.env.SMTP_URL = mail.url;

const { prisma, pool } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { accountTasks } = await import("~/accounts/tasks.server");
const { signUp, checkSignUpPolicy, invitationTokenIn } = await import("~/accounts/sign-up.server");
const verification = await import("~/accounts/email-verification.server");
const { requestPasswordReset, resetPassword } = await import("~/accounts/password-reset.server");
const { linkTokenHash } = await import("~/lib/link-token");
const { createOrganization } = await import("~/organizations/organizations.server");
const { acceptInvitation, newInvitationToken } = await import("~/organizations/invitation-acceptance.server");
const { validateSessionToken } = await import("~/auth/session.server");
const { signIn } = await import("~/auth/sign-in.server");
const { createInvitationWithLink, createOrganizationWith, createUser, signedIn } = await import("../factories");

afterAll(() => mail.stop());
beforeEach(async () => {
  await pool().query("DELETE FROM rate_limits");
});

const delivery = { language: "en" as const, origin: "https://keys.example.com" };
const open = { kind: "open" as const };
const PASSWORD = "a-long-enough-password";
const deliverMail = () => runDueJobs(accountTasks);
const fresh = (prefix = "new") => `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
let addressCounter = 0;
const client = () => `10.9.${Math.floor(++addressCounter / 200)}.${addressCounter % 200}`;
const jobs = async () =>
  (await prisma.$queryRaw<{ task: string }[]>`SELECT task_identifier AS task FROM graphile_worker.jobs ORDER BY id`).map((j) => j.task);

async function verificationToken(email: string, nth = 1): Promise<string> {
  await deliverMail();
  const received = await mail.waitFor(email, nth);
  expect(received).toHaveLength(nth);
  return linkToken(received[nth - 1]!.text, "/verify-email");
}

async function invitationFor(email: string, expiresAt = new Date(Date.now() + 86_400_000)) {
  const owner = await createUser();
  const org = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
  const { token, hash } = newInvitationToken();
  await createInvitationWithLink({
    organizationId: org.id,
    email,
    role: "member",
    invitedById: owner.id,
    expiresAt,
    tokenHash: hash,
    lastSentAt: new Date(),
  });
  return { token, org, redirectTo: `/invitations/accept?token=${token}` };
}

describe("sign-up with a taken and a free address", () => {
  it("answers both the same, does the same work, and mails the right person", async () => {
    const taken = await createUser({ name: "Tina Taken" });
    const before = await prisma.user.findUniqueOrThrow({ where: { id: taken.id } });
    const free = fresh();
    const jobsBefore = (await jobs()).length;
    const answers = [
      await signUp({ name: "Someone", email: taken.email, password: PASSWORD }, { policy: open, clientAddress: client(), delivery }),
      await signUp({ name: "Fiona Free", email: free, password: PASSWORD }, { policy: open, clientAddress: client(), delivery }),
    ];
    expect(answers).toEqual([{ kind: "mailed" }, { kind: "mailed" }]);
    // One job each, and no session for either.
    expect((await jobs()).slice(jobsBefore)).toEqual(["send-sign-up-attempt-mail", "send-email-verification-mail"]);
    const created = await prisma.user.findUniqueOrThrow({ where: { email: free } });
    expect(created.emailVerifiedAt).toBeNull();
    expect(await prisma.session.count({ where: { userId: { in: [taken.id, created.id] } } })).toBe(0);
    // The taken account is exactly as it was.
    expect(await prisma.user.findUniqueOrThrow({ where: { id: taken.id } })).toEqual(before);

    await deliverMail();
    const [note] = await mail.waitFor(taken.email);
    expect(note!.subject).toBe("Someone tried to sign up for KeyLedger with your address");
    expect(note!.text).toContain("Hello Tina Taken,");
    expect(note!.text).toContain("https://keys.example.com/login");
    expect(note!.text).toContain("https://keys.example.com/forgot-password");
    expect(note!.text).not.toMatch(/token=/);
    const [welcome] = await mail.waitFor(free);
    expect(welcome!.subject).toBe("Confirm your e-mail address for KeyLedger");
    expect(welcome!.text).toContain("https://keys.example.com/verify-email?token=");
    // Only the token's SHA-256 is stored.
    const token = linkToken(welcome!.text, "/verify-email");
    const stored = await prisma.emailVerification.findUniqueOrThrow({ where: { userId: created.id } });
    expect(stored.tokenHash).toBe(linkTokenHash(token));
    expect(stored.tokenHash).not.toContain(token);
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(verification.VERIFICATION_LINK_LIFETIME);
  });

  it("limits sign-ups per address signed up with, taken or free alike, and per client address", async () => {
    const taken = await createUser();
    for (const email of [taken.email, fresh()]) {
      for (let i = 0; i < 5; i++)
        await signUp({ name: "X", email, password: PASSWORD }, { policy: open, clientAddress: client(), delivery });
      const error = await failure(signUp({ name: "X", email, password: PASSWORD }, { policy: open, clientAddress: client(), delivery }));
      expect([error.code, error.messageKey]).toEqual(["TOO_MANY_REQUESTS", "rateLimited"]);
    }
    const office = client();
    for (let i = 0; i < 20; i++)
      await signUp({ name: "X", email: fresh(), password: PASSWORD }, { policy: open, clientAddress: office, delivery });
    const flood = await failure(
      signUp({ name: "X", email: fresh(), password: PASSWORD }, { policy: open, clientAddress: office, delivery }),
    );
    expect(flood.code).toBe("TOO_MANY_REQUESTS");
  });

  it("tells nothing later either: the password chosen at sign-up does not sign in until the address is proven", async () => {
    // Otherwise signing up with someone's address and then signing in with the password just
    // chosen would tell whether the address had an account before.
    const taken = await createUser();
    const free = fresh();
    const probe = "the-prober's-own-choice";
    for (const email of [taken.email, free])
      await signUp({ name: "Probe", email, password: probe }, { policy: open, clientAddress: client(), delivery });
    const answers = [];
    for (const email of [taken.email, free]) {
      const error = await failure(signIn({ email, password: probe }, client()));
      answers.push([error.code, error.messageKey]);
    }
    expect(answers).toEqual([
      ["UNAUTHORIZED", "invalidCredentials"],
      ["UNAUTHORIZED", "invalidCredentials"],
    ]);
    const created = await prisma.user.findUniqueOrThrow({ where: { email: free } });
    expect(await prisma.session.count({ where: { userId: created.id } })).toBe(0);
    // The mailed link proves the address; from then on the password works.
    await verification.verifyEmail({ token: await verificationToken(free), password: probe }, null, client());
    expect((await signIn({ email: free, password: probe }, client())).token).toBeTruthy();
  });
});

describe("sign-up policies", () => {
  it("decides from the address and the invitation only", () => {
    const domains = { kind: "domains" as const, domains: ["a.example", "b.example"] };
    expect(() => checkSignUpPolicy(open, "x@anything.test", null)).not.toThrow();
    expect(() => checkSignUpPolicy(domains, "x@b.example", null)).not.toThrow();
    for (const email of ["x@c.example", "x@sub.a.example", "x@a.example.evil.test"]) {
      expect(() => checkSignUpPolicy(domains, email, null)).toThrow(expect.objectContaining({ messageKey: "signUp.domainNotAllowed" }));
    }
    expect(() => checkSignUpPolicy({ kind: "invite" }, "x@a.example", null)).toThrow(
      expect.objectContaining({ messageKey: "signUp.inviteOnly" }),
    );
    // An invitation admits exactly its own address, under every policy.
    expect(() => checkSignUpPolicy({ kind: "invite" }, "x@c.example", "x@c.example")).not.toThrow();
    expect(() => checkSignUpPolicy(domains, "x@c.example", "x@c.example")).not.toThrow();
    expect(() => checkSignUpPolicy({ kind: "invite" }, "y@c.example", "x@c.example")).toThrow(
      expect.objectContaining({ messageKey: "signUp.invitedAddressOnly", params: { email: "x@c.example" } }),
    );
  });

  it("reads the invitation token only from a redirect to the accept page", () => {
    expect(invitationTokenIn("/invitations/accept?token=abc")).toBe("abc");
    expect(invitationTokenIn("/dashboard?token=abc")).toBeNull();
    expect(invitationTokenIn("https://evil.example/invitations/accept?token=abc")).toBeNull();
    expect(invitationTokenIn(undefined)).toBeNull();
  });

  it("refuses before any lookup or limit: a taken address gets the same refusal as a free one", async () => {
    const taken = await createUser({ email: `taken-${randomUUID().slice(0, 8)}@c.example` });
    const policy = { kind: "invite" as const };
    const errors = await Promise.all(
      [taken.email, `free-${randomUUID().slice(0, 8)}@c.example`].map((email) =>
        failure(signUp({ name: "X", email, password: PASSWORD }, { policy, clientAddress: client(), delivery })),
      ),
    );
    expect(errors.map((e) => [e.code, e.messageKey])).toEqual([
      ["FORBIDDEN", "signUp.inviteOnly"],
      ["FORBIDDEN", "signUp.inviteOnly"],
    ]);
    expect(
      await pool()
        .query("SELECT 1 FROM rate_limits WHERE key LIKE 'auth.signup%'")
        .then((r) => r.rowCount),
    ).toBe(0);
  });

  it("signs in at once, verified, someone who signs up from a pending invitation for exactly that address", async () => {
    const email = fresh("invited");
    const { token, org, redirectTo } = await invitationFor(email);
    const outcome = await signUp(
      { name: "Ivo Invited", email, password: PASSWORD, redirectTo },
      { policy: { kind: "invite" }, clientAddress: client(), delivery },
    );
    expect(outcome.kind).toBe("signedIn");
    const auth = await validateSessionToken((outcome as { token: string }).token);
    expect(auth?.user.emailVerified).toBe(true);
    await expect(acceptInvitation(auth!, token)).resolves.toEqual({ organizationId: org.id, role: "member" });
    // An expired invitation admits no one under "invite only".
    const late = fresh("late");
    const expired = await invitationFor(late, new Date(Date.now() - 1000));
    const error = await failure(
      signUp(
        { name: "L", email: late, password: PASSWORD, redirectTo: expired.redirectTo },
        { policy: { kind: "invite" }, clientAddress: client(), delivery },
      ),
    );
    expect(error.messageKey).toBe("signUp.inviteOnly");
  });
});

describe("the verification link", () => {
  async function signedUp() {
    const email = fresh();
    await signUp(
      { name: "Vera", email, password: PASSWORD, redirectTo: "/dashboard/organizations/new" },
      { policy: open, clientAddress: client(), delivery },
    );
    const user = await prisma.user.findUniqueOrThrow({ where: { email }, select: { id: true, email: true } });
    return { user, token: await verificationToken(email) };
  }

  it("verifies the address and signs in, once", async () => {
    const { user, token } = await signedUp();
    const [welcome] = await mail.waitFor(user.email);
    expect(welcome!.text).toContain(`redirectTo=${encodeURIComponent("/dashboard/organizations/new")}`);
    const result = await verification.verifyEmail({ token, password: PASSWORD }, null, client());
    expect(result.signedIn).toBe(true);
    const auth = await validateSessionToken((result as { token: string }).token);
    expect(auth?.user).toMatchObject({ id: user.id, emailVerified: true });
    const reused = await failure(verification.verifyEmail({ token, password: PASSWORD }, null, client()));
    expect([reused.code, reused.messageKey]).toEqual(["BAD_REQUEST", "emailVerification.invalidLink"]);
    expect(await prisma.session.count({ where: { userId: user.id } })).toBe(1);
  });

  it("refuses an expired, malformed or replaced link, and one whose account changed its address", async () => {
    const { user, token } = await signedUp();
    await prisma.emailVerification.update({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const bad of [token, "short", "x".repeat(43)]) {
      expect((await failure(verification.verifyEmail({ token: bad, password: PASSWORD }, null, client()))).code).toBe("BAD_REQUEST");
    }
    // Asking again replaces the link: the older one stops working.
    const { auth } = await signedIn(user.id);
    await verification.requestVerificationMail(auth, delivery);
    const second = await verificationToken(user.email, 2);
    await prisma.user.update({ where: { id: user.id }, data: { email: fresh("moved") } });
    expect((await failure(verification.verifyEmail({ token: second, password: PASSWORD }, null, client()))).messageKey).toBe(
      "emailVerification.invalidLink",
    );
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).toBeNull();
  });

  it("refuses a link for another account than the signed-in one and changes nothing", async () => {
    const { user, token } = await signedUp();
    const other = await createUser();
    const { auth } = await signedIn(other.id);
    const error = await failure(verification.verifyEmail({ token, password: PASSWORD }, auth, client()));
    expect([error.code, error.messageKey]).toEqual(["FORBIDDEN", "emailVerification.otherAccount"]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).toBeNull();
    // The same account signed in keeps its session and is verified.
    const own = await signedIn(user.id);
    expect(await verification.verifyEmail({ token, password: PASSWORD }, own.auth, client())).toEqual({ signedIn: false });
    expect((await prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).not.toBeNull();
  });

  it("asks an account with two-factor for its second step", async () => {
    const { user, token } = await signedUp();
    await prisma.user.update({ where: { id: user.id }, data: { twoFactorEnabledAt: new Date(), totpKey: Buffer.alloc(20, 1) } });
    const result = await verification.verifyEmail({ token, password: PASSWORD }, null, client());
    expect(result).toMatchObject({ signedIn: true, twoFactorPending: true });
  });
});

describe("organizations need a verified address", () => {
  it("refuses an unverified account and lets it in once verified by link, invitation or password reset", async () => {
    const unverified = await createUser({ verified: false });
    const { auth } = await signedIn(unverified.id);
    const error = await failure(createOrganization(auth, { name: "Too Soon" }));
    expect([error.code, error.messageKey]).toEqual(["FORBIDDEN", "emailVerification.required"]);
    expect(await prisma.membership.count({ where: { userId: unverified.id } })).toBe(0);

    const invited = await createUser({ verified: false });
    const { token } = await invitationFor(invited.email);
    await acceptInvitation((await signedIn(invited.id)).auth, token);
    const afterInvite = (await signedIn(invited.id)).auth;
    expect(afterInvite.user.emailVerified).toBe(true);
    await expect(createOrganization(afterInvite, { name: "Invited Org" })).resolves.toMatchObject({ role: "owner" });

    const resetter = await createUser({ verified: false });
    await requestPasswordReset(resetter.email, client(), delivery);
    await deliverMail();
    const [resetMail] = await mail.waitFor(resetter.email);
    await resetPassword(linkToken(resetMail!.text, "/reset-password"), "a-brand-new-password");
    expect((await signedIn(resetter.id)).auth.user.emailVerified).toBe(true);
  });

  it("sends the link again, limited per account, and nothing to a verified account", async () => {
    const user = await createUser({ verified: false });
    const { auth } = await signedIn(user.id);
    for (let i = 0; i < 5; i++) await verification.requestVerificationMail(auth, delivery);
    const error = await failure(verification.requestVerificationMail(auth, delivery));
    expect(error.code).toBe("TOO_MANY_REQUESTS");
    // One waiting job per account: five requests, one mail.
    await deliverMail();
    expect(await mail.waitFor(user.email, 2, 500)).toHaveLength(1);
    const verified = await createUser();
    const before = (await jobs()).length;
    await verification.requestVerificationMail((await signedIn(verified.id)).auth, delivery);
    expect((await jobs()).length).toBe(before);
  });
});

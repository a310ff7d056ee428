// Invitations end to end on real PostgreSQL and a real SMTP server: issue, mail after commit
// through the job queue, accept, cancel, resend, expiry, races, delivery failures and retries.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { startMailServer, tokenFrom } from "../smtp";
import { failure } from "../failure";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

// Before anything reads the configuration: mail goes to this test's own SMTP server.
const mail = await startMailServer();
process.env.SMTP_URL = mail.url;

const { authorizeOrganization } = await import("~/access/organization-access.server");
const { prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const invitations = await import("~/organizations/invitations.server");
const acceptance = await import("~/organizations/invitation-acceptance.server");
const { organizationTasks } = await import("~/organizations/tasks.server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { call } = await import("../rpc");

afterAll(() => mail.stop());

const delivery = { language: "en" as const, origin: "https://keys.example.com" };
const deliverMail = () => runDueJobs(organizationTasks);

async function setup(role: "owner" | "admin" = "owner") {
  const inviter = await createUser({ name: "Ines Inviter" });
  const org = await createOrganizationWith([{ userId: inviter.id, role }]);
  if (role !== "owner") {
    const owner = await createUser();
    await prisma.membership.create({ data: { organizationId: org.id, userId: owner.id, role: "owner" } });
  }
  const { auth, token } = await signedIn(inviter.id, org.id);
  const manager = await authorizeOrganization(auth, org.id, "member:manage");
  return { inviter, org, auth, token, manager };
}

const eventsOf = (organizationId: string, action?: string) =>
  prisma.auditEvent.findMany({ where: { organizationId, ...(action ? { action } : {}) }, orderBy: { id: "asc" } });
const jobCount = async () => Number((await prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs`)[0]!.n);

beforeEach(async () => {
  await prisma.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  await prisma.$executeRaw`DELETE FROM rate_limits`;
});

describe("inviting", () => {
  it("issues one invitation with its event and one outbox job in one transaction; the mail goes out after commit", async () => {
    const { org, manager, inviter } = await setup();
    const email = `New.Person+${Date.now()}@Example.com`;
    const { invitation, created } = await invitations.inviteMember(manager, { email: email.toLowerCase(), role: "member" }, delivery);
    expect(created).toBe(true);
    expect(invitation).toMatchObject({ email: email.toLowerCase(), role: "member", status: "pending", lastSentAt: null });
    const events = await eventsOf(org.id, "invitation.sent");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorKind: "user",
      actorId: inviter.id,
      targetType: "invitation",
      targetId: invitation.id,
      details: { role: "member" },
      idempotencyKey: `invitation.sent/${invitation.id}`,
    });
    // Nothing is sent inside the request; the worker sends it.
    expect(mail.messages.filter((m) => m.subject?.includes(org.name))).toHaveLength(0);
    expect(await jobCount()).toBe(1);
    await deliverMail();
    const [received, ...more] = await mail.waitFor(email);
    expect(more).toHaveLength(0);
    expect(received!.subject).toBe(`Ines Inviter invited you to ${org.name} on KeyLedger`);
    expect(received!.text).toContain(`https://keys.example.com/invitations/accept?token=`);
    expect(received!.html).toContain("Accept the invitation");
    // Only the token's hash is stored, and it matches the link's token.
    const stored = await prisma.invitation.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: org.id, id: invitation.id } },
    });
    expect(Buffer.from(stored.tokenHash!)).toEqual(Buffer.from(acceptance.hashInvitationToken(tokenFrom(received!))));
    expect(JSON.stringify(stored)).not.toContain(tokenFrom(received!));
    expect(stored.lastSentAt).not.toBeNull();
    expect(await jobCount()).toBe(0);
  });

  it("writes the mail in the inviter's language, with names escaped in the HTML", async () => {
    const { org, manager } = await setup();
    await prisma.organization.update({ where: { id: org.id }, data: { name: `<b>Acme</b> & "Co"` } });
    const email = `de-${Date.now()}@example.com`;
    await invitations.inviteMember(manager, { email, role: "admin" }, { ...delivery, language: "de" });
    await deliverMail();
    const [received] = await mail.waitFor(email);
    expect(received!.subject).toBe(`Ines Inviter hat Sie zu <b>Acme</b> & "Co" auf KeyLedger eingeladen`);
    expect(received!.text).toContain("als Administrator beizutreten");
    expect(received!.html).toContain("&lt;b&gt;Acme&lt;/b&gt; &amp; &quot;Co&quot;");
    expect(received!.html).not.toContain("<b>Acme</b>");
  });

  it("inviting a pending address again (any case) returns the same invitation: no event, no mail", async () => {
    const { org, manager } = await setup();
    const email = `again-${Date.now()}@example.com`;
    const first = await invitations.inviteMember(manager, { email, role: "member" }, delivery);
    await deliverMail();
    const second = await invitations.inviteMember(manager, { email, role: "admin" }, delivery);
    expect(second).toEqual({ invitation: expect.objectContaining({ id: first.invitation.id, role: "member" }), created: false });
    await deliverMail();
    expect(await mail.waitFor(email, 2, 500)).toHaveLength(1);
    expect(await eventsOf(org.id, "invitation.sent")).toHaveLength(1);
  });

  it("through /rpc: differently-cased addresses are one invitee; malformed and overlong ones are 400 with nothing written", async () => {
    const { org, token } = await setup();
    const stamp = Date.now();
    const first = await call("organization/inviteMember", token, {
      organizationId: org.id,
      email: `Bob.${stamp}@Example.COM`,
      role: "member",
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ email: `bob.${stamp}@example.com`, status: "pending" });
    const again = await call("organization/inviteMember", token, {
      organizationId: org.id,
      email: ` BOB.${stamp}@example.com `,
      role: "member",
    });
    expect(again.json).toMatchObject({ id: first.json.id });
    for (const email of ["not-an-address", "a@", "@b.c", `${"x".repeat(250)}@example.com`, "bob@example.com\u0000", "", 42, null]) {
      const refused = await call(
        "organization/inviteMember",
        token,
        { organizationId: org.id, email, role: "member" },
        { "accept-language": "de" },
      );
      expect(refused.status, String(email)).toBe(400);
      expect(refused.json).toMatchObject({ code: "BAD_REQUEST", message: "Die Anfrage hat nicht die erwartete Form." });
    }
    expect(await prisma.invitation.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await eventsOf(org.id)).toHaveLength(1);
    expect(await jobCount()).toBe(1);
  });

  it("two simultaneous invites of one address make one invitation, one event and one mail", async () => {
    const { org, manager } = await setup();
    const email = `race-${Date.now()}@example.com`;
    const results = await Promise.all([
      invitations.inviteMember(manager, { email, role: "member" }, delivery),
      invitations.inviteMember(manager, { email, role: "member" }, delivery),
    ]);
    expect(new Set(results.map((r) => r.invitation.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await prisma.invitation.count({ where: { organizationId: org.id } })).toBe(1);
    expect(await eventsOf(org.id, "invitation.sent")).toHaveLength(1);
    await deliverMail();
    expect(await mail.waitFor(email, 2, 500)).toHaveLength(1);
  });

  it("refuses existing members, owner invitations from admins and other roles: nothing written, nothing sent", async () => {
    const { org, manager, inviter } = await setup("admin");
    const member = await createUser();
    await prisma.membership.create({ data: { organizationId: org.id, userId: member.id, role: "member" } });
    expect(await failure(invitations.inviteMember(manager, { email: member.email, role: "member" }, delivery))).toMatchObject({
      code: "CONFLICT",
      messageKey: "invitation.alreadyMember",
    });
    expect(await failure(invitations.inviteMember(manager, { email: "x@example.com", role: "owner" }, delivery))).toMatchObject({
      code: "FORBIDDEN",
      messageKey: "invitation.ownerOnly",
    });
    expect(await prisma.invitation.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await eventsOf(org.id)).toHaveLength(0);
    expect(await jobCount()).toBe(0);
    expect(inviter).toBeTruthy();
  });

  it("limits invitation mails per inviter and hour, with Retry-After, and records nothing when refused", async () => {
    const { org, token } = await setup();
    for (let i = 0; i < 20; i++) {
      const ok = await call("organization/inviteMember", token, {
        organizationId: org.id,
        email: `limit-${i}@example.com`,
        role: "member",
      });
      expect(ok.status).toBe(200);
    }
    const refused = await call("organization/inviteMember", token, {
      organizationId: org.id,
      email: "one-more@example.com",
      role: "member",
    });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await prisma.invitation.count({ where: { organizationId: org.id } })).toBe(20);
    expect(await eventsOf(org.id, "invitation.sent")).toHaveLength(20);
  });

  it("an SMTP server that is down leaves the invitation and its event; the mail goes out once it is back, exactly once", async () => {
    const { org, manager } = await setup();
    const email = `down-${Date.now()}@example.com`;
    await mail.stop();
    try {
      await invitations.inviteMember(manager, { email, role: "member" }, delivery);
      await deliverMail();
      const job = await prisma.$queryRaw<
        { attempts: number; last_error: string | null }[]
      >`SELECT attempts, last_error FROM graphile_worker.jobs`;
      expect(job).toHaveLength(1);
      expect(job[0]!.attempts).toBe(1);
      expect(job[0]!.last_error).toBeTruthy();
      const stored = await prisma.invitation.findFirstOrThrow({ where: { organizationId: org.id } });
      expect(stored).toMatchObject({ status: "pending", tokenHash: null, lastSentAt: null });
      expect(await eventsOf(org.id, "invitation.sent")).toHaveLength(1);
    } finally {
      await mail.start();
    }
    // The retry is due after about e^1 seconds; run due jobs until it has gone out.
    const deadline = Date.now() + 15_000;
    while ((await mail.waitFor(email, 1, 0)).length === 0 && Date.now() < deadline) {
      await deliverMail();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await deliverMail();
    expect(await mail.waitFor(email, 2, 500)).toHaveLength(1);
    expect(await eventsOf(org.id, "invitation.sent")).toHaveLength(1);
    expect(await jobCount()).toBe(0);
  });

  it("two workers (two app instances) never send one message twice", async () => {
    const { manager } = await setup();
    const email = `workers-${Date.now()}@example.com`;
    await invitations.inviteMember(manager, { email, role: "member" }, delivery);
    await Promise.all([deliverMail(), deliverMail(), deliverMail()]);
    expect(await mail.waitFor(email, 2, 500)).toHaveLength(1);
  });

  it("an audit insert that fails rolls the invitation and its outbox job back", async () => {
    const { org, manager } = await setup();
    // As the tables' owner: the app's role may not create triggers (decision 0049).
    const asOwner = (sql: string) => queryOnce(process.env.DATABASE_URL!, sql);
    await asOwner(`CREATE FUNCTION fail_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit down'; END $$`);
    await asOwner(`CREATE TRIGGER fail_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION fail_audit()`);
    try {
      await expect(invitations.inviteMember(manager, { email: "rollback@example.com", role: "member" }, delivery)).rejects.toThrow(
        /audit down/,
      );
    } finally {
      await asOwner(`DROP TRIGGER fail_audit ON audit_events`);
      await asOwner(`DROP FUNCTION fail_audit()`);
    }
    expect(await prisma.invitation.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await jobCount()).toBe(0);
  });
});

describe("accepting", () => {
  async function invited(email = `invitee-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`) {
    const context = await setup();
    const { invitation } = await invitations.inviteMember(context.manager, { email, role: "admin" }, delivery);
    await deliverMail();
    const [received] = await mail.waitFor(email);
    return { ...context, email, invitation, token: tokenFrom(received!) };
  }

  it("organization.acceptInvitation answers {organizationId, role} to the invitee's session", async () => {
    const { org, email, token } = await invited();
    const invitee = await createUser({ email });
    const session = await signedIn(invitee.id);
    const answer = await call("organization/acceptInvitation", session.token, { token });
    expect(answer).toMatchObject({ status: 200, json: { organizationId: org.id, role: "admin" } });
    expect((await call("organization/acceptInvitation", session.token, { token })).status).toBe(409);
  });

  it("makes the invitee a member with the invited role, and records invitation.accepted once", async () => {
    const { org, email, invitation, token } = await invited();
    const invitee = await createUser({ email });
    const { auth } = await signedIn(invitee.id);
    expect(await acceptance.acceptInvitation(auth, token)).toEqual({ organizationId: org.id, role: "admin" });
    expect(
      await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: org.id, userId: invitee.id } } }),
    ).toMatchObject({
      role: "admin",
    });
    const events = await eventsOf(org.id, "invitation.accepted");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: invitee.id, targetId: invitation.id, details: { role: "admin", userId: invitee.id } });
    // Twice: refused, nothing new.
    expect(await failure(acceptance.acceptInvitation(auth, token))).toMatchObject({
      code: "CONFLICT",
      messageKey: "invitation.notPending",
    });
    expect(await eventsOf(org.id, "invitation.accepted")).toHaveLength(1);
    // A used link shows nothing of the invitation any more (docs/decisions/0033-demo-data-and-safe-start.md).
    expect(await acceptance.previewInvitation(token)).toEqual({ state: "invalid" });
  });

  it("refuses another account, an unknown or malformed token, an expired and a canceled invitation", async () => {
    const { org, email, invitation, token, manager } = await invited();
    const other = await createUser();
    const { auth: otherAuth } = await signedIn(other.id);
    expect(await failure(acceptance.acceptInvitation(otherAuth, token))).toMatchObject({
      code: "FORBIDDEN",
      messageKey: "invitation.wrongAccount",
    });
    for (const bad of ["", "x", "A".repeat(43), token.slice(0, -1), `${token}A`, "../../etc", "🙂".repeat(20)]) {
      expect(await failure(acceptance.acceptInvitation(otherAuth, bad))).toMatchObject({ code: "NOT_FOUND" });
    }
    const invitee = await createUser({ email });
    const { auth } = await signedIn(invitee.id);
    await prisma.invitation.update({
      where: { organizationId_id: { organizationId: org.id, id: invitation.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await failure(acceptance.acceptInvitation(auth, token))).toMatchObject({ code: "CONFLICT", messageKey: "invitation.expired" });
    // Expired looks exactly like unknown: the page cannot tell a once-valid token from a guess.
    expect(await acceptance.previewInvitation(token)).toEqual({ state: "invalid" });
    await prisma.invitation.update({
      where: { organizationId_id: { organizationId: org.id, id: invitation.id } },
      data: { expiresAt: new Date(Date.now() + 60_000) },
    });
    await invitations.cancelInvitation(manager, invitation.id);
    expect(await failure(acceptance.acceptInvitation(auth, token))).toMatchObject({ code: "NOT_FOUND" });
    expect((await acceptance.previewInvitation(token)).state).toBe("invalid");
    expect(await prisma.membership.count({ where: { organizationId: org.id, userId: { in: [invitee.id, other.id] } } })).toBe(0);
    expect(await eventsOf(org.id, "invitation.accepted")).toHaveLength(0);
  });

  it("accept and cancel at once: exactly one wins, with exactly one event", async () => {
    for (let round = 0; round < 5; round++) {
      const { org, email, invitation, token, manager } = await invited();
      const invitee = await createUser({ email });
      const { auth } = await signedIn(invitee.id);
      const [accepted, canceled] = await Promise.allSettled([
        acceptance.acceptInvitation(auth, token),
        invitations.cancelInvitation(manager, invitation.id),
      ]);
      expect([accepted.status, canceled.status].filter((s) => s === "fulfilled")).toHaveLength(1);
      const events = (await eventsOf(org.id)).filter((e) => e.action !== "invitation.sent");
      expect(events).toHaveLength(1);
      const stored = await prisma.invitation.findUniqueOrThrow({
        where: { organizationId_id: { organizationId: org.id, id: invitation.id } },
      });
      const member = await prisma.membership.count({ where: { organizationId: org.id, userId: invitee.id } });
      if (accepted.status === "fulfilled")
        expect([events[0]!.action, stored.status, member]).toEqual(["invitation.accepted", "accepted", 1]);
      else expect([events[0]!.action, stored.status, member]).toEqual(["invitation.canceled", "canceled", 0]);
    }
  });

  it("refuses to accept when the organization requires two-factor and the invitee has none", async () => {
    const { org, email, token } = await invited();
    await prisma.organization.update({ where: { id: org.id }, data: { requireTwoFactor: true } });
    const invitee = await createUser({ email });
    const { auth } = await signedIn(invitee.id);
    expect(await failure(acceptance.acceptInvitation(auth, token))).toMatchObject({ code: "FORBIDDEN" });
    expect(await eventsOf(org.id, "invitation.accepted")).toHaveLength(0);
  });

  it("resend sends a new link and the old one stops working; no second issuance event", async () => {
    const { org, email, invitation, token, manager } = await invited();
    await invitations.resendInvitation(manager, invitation.id, delivery);
    await deliverMail();
    const [, second] = await mail.waitFor(email, 2);
    const newToken = tokenFrom(second!);
    expect(newToken).not.toBe(token);
    const invitee = await createUser({ email });
    const { auth } = await signedIn(invitee.id);
    expect(await failure(acceptance.acceptInvitation(auth, token))).toMatchObject({ code: "NOT_FOUND" });
    await acceptance.acceptInvitation(auth, newToken);
    expect(await eventsOf(org.id, "invitation.sent")).toHaveLength(1);
    // An accepted invitation can be neither resent nor canceled.
    expect(await failure(invitations.resendInvitation(manager, invitation.id, delivery))).toMatchObject({ code: "CONFLICT" });
    expect(await failure(invitations.cancelInvitation(manager, invitation.id))).toMatchObject({ code: "CONFLICT" });
    expect(await eventsOf(org.id, "invitation.canceled")).toHaveLength(0);
  });

  it("an expired invitation is replaced by a new one when the address is invited again (expiry itself is not recorded)", async () => {
    const { org, email, invitation, manager } = await invited();
    await prisma.invitation.update({
      where: { organizationId_id: { organizationId: org.id, id: invitation.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await failure(invitations.resendInvitation(manager, invitation.id, delivery))).toMatchObject({
      messageKey: "invitation.expired",
    });
    const again = await invitations.inviteMember(manager, { email, role: "member" }, delivery);
    expect(again.created).toBe(true);
    expect(again.invitation.id).not.toBe(invitation.id);
    expect(
      (await prisma.invitation.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.id, id: invitation.id } } })).status,
    ).toBe("expired");
    expect((await eventsOf(org.id)).map((e) => e.action)).toEqual(["invitation.sent", "invitation.sent"]);
  });
});

describe("another organization's ids", () => {
  it("answer 404 and change nothing", async () => {
    const mine = await setup();
    const theirs = await setup();
    const { invitation } = await invitations.inviteMember(
      theirs.manager,
      { email: `theirs-${Date.now()}@example.com`, role: "member" },
      delivery,
    );
    expect(await failure(invitations.cancelInvitation(mine.manager, invitation.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure(invitations.resendInvitation(mine.manager, invitation.id, delivery))).toMatchObject({ code: "NOT_FOUND" });
    const viaRpc = await call("organization/cancelInvitation", mine.token, { organizationId: mine.org.id, invitationId: invitation.id });
    expect(viaRpc.status).toBe(404);
    expect(
      (await prisma.invitation.findUniqueOrThrow({ where: { organizationId_id: { organizationId: theirs.org.id, id: invitation.id } } }))
        .status,
    ).toBe("pending");
    expect(await eventsOf(mine.org.id)).toHaveLength(0);
  });
});

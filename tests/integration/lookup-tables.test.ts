// The lookups of values unique across organizations (decision 0050): organization_slugs,
// invitation_tokens and billing_provider_event_ids. Their primary keys keep the values unique (also
// between two transactions racing), each row is written and deleted with the row it indexes, reads
// by the value go through them, and an organization's deletion leaves none of its rows behind.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { queryOnce } from "../../scripts/lib/pg-client";
import { startMailServer, tokenFrom } from "../smtp";
import { failure } from "../failure";
import { untilWaitingForLock } from "../lock-waits";

// Before anything reads the configuration: mail goes to this test's own SMTP server.
const mail = await startMailServer();
process.env.SMTP_URL = mail.url;

const { authorizeOrganization } = await import("~/access/organization-access.server");
const { deleteAccount } = await import("~/accounts/account-deletion.server");
const { applyProviderEvent } = await import("~/billing/billing.server");
const { billingSetupFrom } = await import("~/billing/provider.server");
const { prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { runHousekeeping } = await import("~/jobs/housekeeping.server");
const organizations = await import("~/organizations/organizations.server");
const invitations = await import("~/organizations/invitations.server");
const acceptance = await import("~/organizations/invitation-acceptance.server");
const { organizationTasks } = await import("~/organizations/tasks.server");
const { OPERATOR_ACTOR, setOrganizationPlan } = await import("~/billing/plan-override.server");
const { createOrganizationWith, createUser, signedIn, TEST_PASSWORD } = await import("../factories");

afterAll(() => mail.stop());

const delivery = { language: "en" as const, origin: "https://keys.example.com" };
const deliverMail = () => runDueJobs(organizationTasks);
const billing = billingSetupFrom({ embeddedDatabase: true });
const clients: pg.Client[] = [];

beforeEach(async () => {
  await prisma.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  await prisma.$executeRaw`DELETE FROM rate_limits`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.end().catch(() => {})));
});

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  clients.push(client);
  return client;
}

async function untilWaiting(pattern: string) {
  await untilWaitingForLock(await connect(), pattern);
}

/** An owner, signed in with a fresh session, of a new organization made through the app. */
async function founder(slug?: string) {
  const user = await createUser();
  const { auth, token } = await signedIn(user.id);
  const organization = await organizations.createOrganization(auth, { name: `Lookups ${randomUUID().slice(0, 6)}`, slug });
  return { user, auth, token, organization };
}

const slugOf = (organizationId: string) => prisma.organizationSlug.findMany({ where: { organizationId }, select: { slug: true } });

/** A paid plan, so provider events apply. */
const onPaidPlan = (organizationId: string) => setOrganizationPlan(organizationId, "team", { actor: OPERATOR_ACTOR });

/** Every lookup row out of step with its tenant rows, over the whole database (empty when all agree). */
async function mismatches(): Promise<unknown[]> {
  // As the tables' owner: a check across organizations (tests/statements holds the app's role to naming one).
  const { rows } = await queryOnce(
    process.env.DATABASE_URL!,
    `
    SELECT 'slug' AS lookup, coalesce(o.id, s.organization_id)::text AS id FROM organizations o
      FULL JOIN organization_slugs s ON s.organization_id = o.id AND s.slug = o.slug
     WHERE o.id IS NULL OR s.slug IS NULL
    UNION ALL
    SELECT 'invitation token', coalesce(i.id, t.invitation_id)::text FROM (SELECT * FROM invitations WHERE token_hash IS NOT NULL) i
      FULL JOIN invitation_tokens t ON t.organization_id = i.organization_id AND t.invitation_id = i.id AND t.token_hash = i.token_hash
     WHERE i.id IS NULL OR t.token_hash IS NULL
    UNION ALL
    SELECT 'billing event', coalesce(e.event_id, b.event_id) FROM billing_provider_events e
      FULL JOIN billing_provider_event_ids b
        ON b.organization_id = e.organization_id AND b.provider = e.provider AND b.event_id = e.event_id
     WHERE e.event_id IS NULL OR b.event_id IS NULL`,
  );
  return rows;
}

describe("organization slugs", () => {
  it("are taken once: a second organization asking for one gets the translated 409, also through a settings change", async () => {
    const slug = `taken-${randomUUID().slice(0, 8)}`;
    const first = await founder(slug);
    expect(await slugOf(first.organization.id)).toEqual([{ slug }]);

    const second = await founder();
    expect(await failure(organizations.createOrganization(second.auth, { name: "Second", slug }))).toMatchObject({
      code: "CONFLICT",
      messageKey: "slugTaken",
    });
    const access = await authorizeOrganization(second.auth, second.organization.id, "organization:update");
    expect(await failure(organizations.updateOrganizationSettings(access, { slug }))).toMatchObject({
      code: "CONFLICT",
      messageKey: "slugTaken",
    });
    // Nothing of the refused change stays: the second organization keeps its own slug and lookup.
    expect(await slugOf(second.organization.id)).toEqual([{ slug: second.organization.slug }]);
    expect(await mismatches()).toEqual([]);
  });

  it("move with a rename: the old slug is free at once, and the organization is found by the new one", async () => {
    const { auth, organization } = await founder();
    const renamed = `renamed-${randomUUID().slice(0, 8)}`;
    const access = await authorizeOrganization(auth, organization.id, "organization:update");
    await organizations.updateOrganizationSettings(access, { slug: renamed });
    expect(await slugOf(organization.id)).toEqual([{ slug: renamed }]);

    const other = await founder(organization.slug);
    expect(other.organization.slug).toBe(organization.slug);
    // The operator's command finds an organization by its slug through the lookup.
    const changed = await setOrganizationPlan(renamed.toUpperCase(), "team", { actor: OPERATOR_ACTOR });
    expect(changed.organization.id).toBe(organization.id);
    expect(await failure(setOrganizationPlan("no-such-slug", "team", { actor: OPERATOR_ACTOR }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await mismatches()).toEqual([]);
  });

  it("are listed again by a rename of an organization that has no row (founded by the release before, during the roll)", async () => {
    const { auth, organization } = await founder();
    await prisma.organizationSlug.delete({ where: { organizationId: organization.id } });
    const renamed = `healed-${randomUUID().slice(0, 8)}`;
    const access = await authorizeOrganization(auth, organization.id, "organization:update");
    await organizations.updateOrganizationSettings(access, { slug: renamed });
    expect(await slugOf(organization.id)).toEqual([{ slug: renamed }]);
    expect(await mismatches()).toEqual([]);
  });

  it("cannot be taken by two organizations founded in two transactions at the same moment", async () => {
    const slug = `race-${randomUUID().slice(0, 8)}`;
    const [a, b] = [await createUser(), await createUser()];
    const [sessionA, sessionB] = [await signedIn(a.id), await signedIn(b.id)];
    // A's founding transaction claims the slug, then waits for its session's row, which another
    // connection holds: the slug is claimed and not committed while B's founding starts.
    const holder = await connect();
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM sessions WHERE user_id = $1 FOR UPDATE", [a.id]);
    const first = organizations.createOrganization(sessionA.auth, { name: "Racer A", slug });
    await untilWaiting("sessions");
    const second = failure(organizations.createOrganization(sessionB.auth, { name: "Racer B", slug }));
    await untilWaiting("organization_slugs");
    await holder.query("COMMIT");

    expect((await first).slug).toBe(slug);
    expect(await second).toMatchObject({ code: "CONFLICT", messageKey: "slugTaken" });
    expect(await prisma.organizationSlug.findMany({ where: { slug }, select: { slug: true } })).toHaveLength(1);
    expect(await prisma.organization.count({ where: { slug } })).toBe(1);
    expect(await mismatches()).toEqual([]);
  });
});

describe("invitation tokens", () => {
  async function invited() {
    const { user, auth, organization } = await founder();
    const manager = await authorizeOrganization(auth, organization.id, "member:manage");
    const email = `invitee-${randomUUID().slice(0, 8)}@example.com`;
    const { invitation } = await invitations.inviteMember(manager, { email, role: "member" }, delivery);
    await deliverMail();
    const [received] = await mail.waitFor(email);
    return { user, organization, manager, email, invitation, token: tokenFrom(received!) };
  }

  const lookupOf = (invitationId: string) =>
    prisma.invitationToken.findMany({ where: { invitationId }, select: { tokenHash: true, organizationId: true } });

  it("are written when the mail goes out, and an accepted link is read through the lookup", async () => {
    const { organization, email, invitation, token } = await invited();
    expect(await lookupOf(invitation.id)).toEqual([
      { tokenHash: new Uint8Array(acceptance.hashInvitationToken(token)), organizationId: organization.id },
    ]);
    expect(await acceptance.previewInvitation(token)).toMatchObject({ state: "pending", email });
    const invitee = await createUser({ email });
    const { auth } = await signedIn(invitee.id);
    expect(await acceptance.acceptInvitation(auth, token)).toEqual({ organizationId: organization.id, role: "member" });
    // A used link keeps its lookup and says so, as before.
    expect(await failure(acceptance.acceptInvitation(auth, token))).toMatchObject({
      code: "CONFLICT",
      messageKey: "invitation.notPending",
    });
    expect(await mismatches()).toEqual([]);
  });

  it("rotate with a resend: the old link's row goes, the new one's comes, and only the new link works", async () => {
    const { email, manager, invitation, token: oldToken } = await invited();
    await invitations.resendInvitation(manager, invitation.id, delivery);
    await deliverMail();
    const newToken = tokenFrom((await mail.waitFor(email, 2)).at(-1)!);
    expect(newToken).not.toBe(oldToken);
    expect((await lookupOf(invitation.id)).map((row) => Buffer.from(row.tokenHash).toString("hex"))).toEqual([
      Buffer.from(acceptance.hashInvitationToken(newToken)).toString("hex"),
    ]);
    const invitee = await createUser({ email });
    const { auth } = await signedIn(invitee.id);
    expect(await failure(acceptance.acceptInvitation(auth, oldToken))).toMatchObject({
      code: "NOT_FOUND",
      messageKey: "invitation.invalidToken",
    });
    expect(await acceptance.acceptInvitation(auth, newToken)).toMatchObject({ role: "member" });
    expect(await mismatches()).toEqual([]);
  });

  it("answer as before for a canceled link (404, its row gone) and an expired one (409, until the housekeeping forgets it)", async () => {
    const canceled = await invited();
    await invitations.cancelInvitation(canceled.manager, canceled.invitation.id);
    expect(await lookupOf(canceled.invitation.id)).toEqual([]);
    const someone = await signedIn((await createUser({ email: canceled.email })).id);
    expect(await failure(acceptance.acceptInvitation(someone.auth, canceled.token))).toMatchObject({
      code: "NOT_FOUND",
      messageKey: "invitation.invalidToken",
    });

    const expired = await invited();
    const longAgo = new Date(Date.now() - 60 * 86_400_000);
    await prisma.invitation.update({
      where: { organizationId_id: { organizationId: expired.organization.id, id: expired.invitation.id } },
      data: { expiresAt: longAgo },
    });
    const invitee = await signedIn((await createUser({ email: expired.email })).id);
    expect(await failure(acceptance.acceptInvitation(invitee.auth, expired.token))).toMatchObject({
      code: "CONFLICT",
      messageKey: "invitation.expired",
    });
    await runHousekeeping();
    expect(await lookupOf(expired.invitation.id)).toEqual([]);
    expect(await failure(acceptance.acceptInvitation(invitee.auth, expired.token))).toMatchObject({ code: "NOT_FOUND" });
    expect(await mismatches()).toEqual([]);
  });

  it("are written by a mail job the previous release queued (its payload names no organization)", async () => {
    const { auth, organization } = await founder();
    const manager = await authorizeOrganization(auth, organization.id, "member:manage");
    const email = `queued-${randomUUID().slice(0, 8)}@example.com`;
    const { invitation } = await invitations.inviteMember(manager, { email, role: "member" }, delivery);
    await prisma.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
    const oldPayload = { invitationId: invitation.id, language: "en", origin: delivery.origin };
    await prisma.$queryRaw`SELECT 1 FROM graphile_worker.add_job(${invitations.SEND_INVITATION_TASK}, ${JSON.stringify(oldPayload)}::json)`;
    await deliverMail();
    const token = tokenFrom((await mail.waitFor(email))[0]!);
    expect(await lookupOf(invitation.id)).toEqual([
      { tokenHash: new Uint8Array(acceptance.hashInvitationToken(token)), organizationId: organization.id },
    ]);
    expect(await mismatches()).toEqual([]);
  });

  it("go with the invitations an account's deletion takes", async () => {
    const { email, invitation } = await invited();
    const invitee = await createUser({ email });
    const { auth } = await signedIn(invitee.id);
    await deleteAccount(auth, { confirm: email, password: TEST_PASSWORD });
    expect(await lookupOf(invitation.id)).toEqual([]);
    expect(await mismatches()).toEqual([]);
  });
});

describe("billing provider event ids", () => {
  it("ignore a replayed event as before, and refuse the same id for another organization", async () => {
    const { organization } = await founder();
    const other = await founder();
    await Promise.all([onPaidPlan(organization.id), onPaidPlan(other.organization.id)]);
    const event = { id: `evt_${randomUUID()}`, type: "payment_failed" as const, organizationId: organization.id };
    const first = await applyProviderEvent(billing, event);
    const eventsAfterFirst = await prisma.auditEvent.count({ where: { organizationId: organization.id } });
    const replay = await applyProviderEvent(billing, event);
    expect(replay.outcome).toBe("already_processed");
    expect(replay.billing).toEqual(first.billing);
    expect(await prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(eventsAfterFirst);
    expect(await failure(applyProviderEvent(billing, { ...event, type: "refund" }))).toMatchObject({ messageKey: "billing.eventIdReused" });
    expect(await failure(applyProviderEvent(billing, { ...event, organizationId: other.organization.id }))).toMatchObject({
      code: "CONFLICT",
      messageKey: "billing.eventIdReused",
    });
    expect(await prisma.billingProviderEventId.findMany({ where: { eventId: event.id }, select: { organizationId: true } })).toEqual([
      { organizationId: organization.id },
    ]);
    expect(await prisma.billingProviderEvent.count({ where: { organizationId: other.organization.id } })).toBe(0);
    expect(await mismatches()).toEqual([]);
  });
});

describe("billing provider event ids, during the upgrade", () => {
  it("count an event the release before applied (its row, no lookup row) as applied: the replay changes nothing and answers", async () => {
    const { organization } = await founder();
    await onPaidPlan(organization.id);
    const event = { id: `evt_${randomUUID()}`, type: "payment_failed" as const, organizationId: organization.id };
    const first = await applyProviderEvent(billing, event);
    // The release before wrote the event's row and nothing in the lookup.
    await queryOnce(process.env.DATABASE_URL!, "DELETE FROM billing_provider_event_ids WHERE event_id = $1", [event.id]);
    const eventsBefore = await prisma.auditEvent.count({ where: { organizationId: organization.id } });
    const replay = await applyProviderEvent(billing, event);
    expect(replay.outcome).toBe("already_processed");
    expect(replay.billing).toEqual(first.billing);
    expect(await prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(eventsBefore);
    expect(await prisma.billingProviderEventId.count({ where: { eventId: event.id } })).toBe(1);
    expect(await mismatches()).toEqual([]);
  });
});

describe("an organization's deletion", () => {
  /** An organization with one row in each lookup: its slug, a mailed invitation, an applied provider event. */
  async function withLookups() {
    const owner = await founder();
    const manager = await authorizeOrganization(owner.auth, owner.organization.id, "member:manage");
    const email = `lookup-${randomUUID().slice(0, 8)}@example.com`;
    await invitations.inviteMember(manager, { email, role: "member" }, delivery);
    await deliverMail();
    await mail.waitFor(email);
    await onPaidPlan(owner.organization.id);
    await applyProviderEvent(billing, { id: `evt_${randomUUID()}`, type: "payment_failed", organizationId: owner.organization.id });
    return owner;
  }

  const lookupRows = async (organizationId: string) => [
    await prisma.organizationSlug.count({ where: { organizationId } }),
    await prisma.invitationToken.count({ where: { organizationId } }),
    await prisma.billingProviderEventId.count({ where: { organizationId } }),
  ];

  it("leaves no lookup row of it, and another organization's rows untouched", async () => {
    const gone = await withLookups();
    const kept = await withLookups();
    expect(await lookupRows(gone.organization.id)).toEqual([1, 1, 1]);
    const access = await authorizeOrganization(gone.auth, gone.organization.id, "organization:delete");
    await organizations.deleteOrganization(access, gone.auth, gone.organization.name);
    expect(await lookupRows(gone.organization.id)).toEqual([0, 0, 0]);
    expect(await lookupRows(kept.organization.id)).toEqual([1, 1, 1]);
    // Its slug is free again.
    expect((await founder(gone.organization.slug)).organization.slug).toBe(gone.organization.slug);
    expect(await mismatches()).toEqual([]);
  });

  it("by its last member's account deletion leaves none either", async () => {
    const gone = await withLookups();
    await deleteAccount(gone.auth, { confirm: gone.user.email, password: TEST_PASSWORD });
    expect(await prisma.organization.count({ where: { id: gone.organization.id } })).toBe(0);
    expect(await lookupRows(gone.organization.id)).toEqual([0, 0, 0]);
    expect(await mismatches()).toEqual([]);
  });
});

describe("the organizations made by the factories", () => {
  it("have their slug's lookup too, so the whole database agrees", async () => {
    await createOrganizationWith([]);
    expect(await mismatches()).toEqual([]);
  });
});

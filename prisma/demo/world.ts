// The demo story's hands: every change goes through the same domain functions, behind the same
// access checks, as a page or procedure would call them, so the history obeys the product's rules
// (limits, locks, idempotency, strict event details). What the story records about keys (their
// planned expiry and last use) is kept here for backdate.ts.
import { authorizeAuditExport, authorizeOrganization } from "../../app/access/organization-access.server.ts";
import type { ApiKeyScope } from "../../app/access/api-key-scopes.ts";
import { deleteAccount } from "../../app/accounts/account-deletion.server.ts";
import { issueKey, revokeKey, rotateKey } from "../../app/api-keys/api-keys.server.ts";
import { parseAuditExportQuery } from "../../app/audit/audit-query.ts";
import { exportAuditLog } from "../../app/audit/export/export-audit-log.server.ts";
import { cancelSubscription, checkout, receiveProviderEvent, resumeSubscription } from "../../app/billing/billing.server.ts";
import {
  createStream,
  deleteStream,
  testStream,
  updateStream,
  type Outbound,
  type StreamChange,
  type StreamCreation,
} from "../../app/audit-streams/streams.server.ts";
import { billingSetupFrom } from "../../app/billing/provider.server.ts";
import { LEAK_MAIL_TASK } from "../../app/secret-scanning/leak-mail.server.tsx";
import { matchKeys } from "../../app/secret-scanning/match-tokens.server.ts";
import { recordReports } from "../../app/secret-scanning/record-reports.server.ts";
import { createSession, validateSessionToken, type Auth } from "../../app/auth/session.server.ts";
import { prisma } from "../../app/db.server.ts";
import type { Role } from "../../app/generated/prisma/enums.ts";
import { reset } from "../../app/lib/rate-limit.server.ts";
import { acceptInvitation, newInvitationToken } from "../../app/organizations/invitation-acceptance.server.ts";
import { cancelInvitation, invitationMailJobKey, inviteMember } from "../../app/organizations/invitations.server.ts";
import { setInvitationTokenHash } from "../../app/organizations/organization-lookups.server.ts";
import { leaveOrganization, removeMember, updateMemberRole } from "../../app/organizations/members.server.ts";
import { createOrganization, switchActiveOrganization, updateOrganizationSettings } from "../../app/organizations/organizations.server.ts";
import type { OrganizationUpdate } from "../../app/organizations/schemas.ts";
import { DEMO_PASSWORD } from "./accounts.ts";
import type { Timeline } from "./timeline.ts";

/** The demo runs on the development payment provider, whatever this process's configuration. */
const DEMO_BILLING = billingSetupFrom({ embeddedDatabase: true });

/** The story's receivers: every address is accepted and every test event arrives, and nothing is
 * sent anywhere (the demo's destinations are made-up hosts). */
const DEMO_OUTBOUND: Outbound = {
  checkDestinationAddress: async () => null,
  sendBatch: async () => ({ ok: true, status: 200 }),
};

/** What backdate.ts needs to know about a key beyond its events. */
export interface KeyFacts {
  id: string;
  /** Planned expiry (the key was issued with the same lifetime, counted from now). */
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

export class DemoWorld {
  private readonly sessions = new Map<string, Auth>();
  readonly keys = new Map<string, KeyFacts>();
  /** Each key's current secret, for the story's leak report (never written anywhere). */
  private readonly secrets = new Map<string, string>();
  readonly organizations = new Map<string, string>();
  private eventCounter = 0;

  constructor(
    readonly timeline: Timeline,
    readonly userIds: ReadonlyMap<string, string>,
  ) {}

  userId(email: string): string {
    const id = this.userIds.get(email);
    if (!id) throw new Error(`no demo user ${email}`);
    return id;
  }

  /** A signed-in session of the person (two-factor checked, as after a full sign-in). */
  async as(email: string): Promise<Auth> {
    let auth = this.sessions.get(email);
    if (!auth) {
      const { token } = await createSession(this.userId(email), { twoFactorVerified: true });
      auth = (await validateSessionToken(token))!;
      this.sessions.set(email, auth);
    }
    return auth;
  }

  organizationId(slug: string): string {
    const id = this.organizations.get(slug);
    if (!id) throw new Error(`no demo organization ${slug}`);
    return id;
  }

  private async member(email: string, slug: string): Promise<Auth> {
    const auth = await this.as(email);
    const organizationId = this.organizationId(slug);
    if (auth.session.activeOrganizationId !== organizationId) await switchActiveOrganization(auth, organizationId);
    return auth;
  }

  /** Founds an organization; `slug` is its slug today (the story may have founded it under another). */
  async createOrganization(email: string, slug: string, name: string, foundingSlug = slug) {
    const created = await createOrganization(await this.as(email), { name, slug: foundingSlug });
    this.organizations.set(slug, created.id);
  }

  async updateSettings(email: string, slug: string, update: OrganizationUpdate) {
    const access = await authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "organization:update");
    await updateOrganizationSettings(access, update);
  }

  private async keyManager(email: string, slug: string) {
    return authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "apiKey:manage");
  }

  /** Issues a key under `label`; `lifetimeDays` from its issue in the story. */
  async issueKey(email: string, slug: string, label: string, input: { scopes: ApiKeyScope[]; lifetimeDays?: number; lastUsedAt?: Date }) {
    const issuedAt = this.timeline.current();
    const lifetime = input.lifetimeDays === undefined ? null : input.lifetimeDays * 24 * 60 * 60 * 1000;
    const { key, secret } = await issueKey(await this.keyManager(email, slug), {
      name: label,
      scopes: input.scopes,
      expiresAt: lifetime === null ? null : new Date(Date.now() + lifetime),
    });
    this.secrets.set(label, secret);
    this.keys.set(label, {
      id: key.id,
      expiresAt: lifetime === null ? null : new Date(issuedAt.getTime() + lifetime),
      lastUsedAt: input.lastUsedAt ?? null,
    });
  }

  private key(label: string): KeyFacts {
    const key = this.keys.get(label);
    if (!key) throw new Error(`no demo key ${label}`);
    return key;
  }

  async rotateKey(email: string, slug: string, label: string) {
    const key = this.key(label);
    // The rule the domain checks against today's clock, checked against the story's.
    if (key.expiresAt && key.expiresAt <= this.timeline.current()) throw new Error(`demo key ${label} rotated after its expiry`);
    const { secret } = await rotateKey(await this.keyManager(email, slug), key.id);
    this.secrets.set(label, secret);
  }

  /** GitHub's secret scanning reports the key's secret found in public (as the endpoint records a
   * verified report). The owners' and admins' mails are dropped, as the invitations' are: no mail
   * goes to demo addresses. */
  async reportLeaked(label: string, found: { url: string; source: string }) {
    const secret = this.secrets.get(label);
    if (!secret) throw new Error(`no demo key ${label}`);
    const matches = [{ token: secret, type: "keyledger_api_key", ...found }];
    await recordReports(await matchKeys([secret]), matches);
    await prisma.$executeRaw`SELECT graphile_worker.complete_jobs(ARRAY(SELECT id FROM graphile_worker.jobs WHERE task_identifier = ${LEAK_MAIL_TASK}))`;
  }

  async revokeKey(email: string, slug: string, label: string) {
    await revokeKey(await this.keyManager(email, slug), this.key(label).id);
  }

  /** Invites, and stands in for the mail's delivery: the link's token is set as the mail job
   * sets it, and the job is dropped, so no mail goes to demo addresses. Returns the link's token. */
  async invite(email: string, slug: string, invitee: string, role: Role): Promise<{ id: string; token: string }> {
    const access = await authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "member:manage");
    const { invitation } = await inviteMember(access, { email: invitee, role }, { language: "en", origin: "http://localhost:3000" });
    const { token, hash } = newInvitationToken();
    const ids = { organizationId: access.organization.id, invitationId: invitation.id };
    await prisma.$transaction(async (tx) => {
      await tx.invitation.update({
        where: { organizationId_id: { organizationId: ids.organizationId, id: ids.invitationId } },
        data: { tokenHash: hash, lastSentAt: new Date() },
        select: { id: true },
      });
      await setInvitationTokenHash(tx, ids, hash);
    });
    await prisma.$executeRaw`SELECT graphile_worker.remove_job(${invitationMailJobKey(invitation.id)})`;
    // The story's invitations lie days apart; their budget must not run out within seconds of today.
    await reset("invitation.inviter", access.user.id);
    await reset("invitation.organization", access.organization.id);
    return { id: invitation.id, token };
  }

  async accept(email: string, token: string) {
    await acceptInvitation(await this.as(email), token);
  }

  async cancelInvitation(email: string, slug: string, invitationId: string) {
    const access = await authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "member:manage");
    await cancelInvitation(access, invitationId);
  }

  async changeRole(email: string, slug: string, memberEmail: string, role: Role) {
    const access = await authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "member:manage");
    await updateMemberRole(access, this.userId(memberEmail), role);
  }

  async removeMember(email: string, slug: string, memberEmail: string) {
    const access = await authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "member:manage");
    await removeMember(access, this.userId(memberEmail));
  }

  async leave(email: string, slug: string) {
    await leaveOrganization(await authorizeOrganization(await this.member(email, slug), this.organizationId(slug)));
  }

  async deleteAccount(email: string) {
    await deleteAccount(await this.as(email), { confirm: email, password: DEMO_PASSWORD });
    this.sessions.delete(email);
  }

  private billingOwner = async (email: string, slug: string) =>
    authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "billing:manage");

  async checkout(email: string, slug: string, planId: string) {
    await checkout(await this.billingOwner(email, slug), planId, DEMO_BILLING);
  }

  async cancelPlan(email: string, slug: string) {
    await cancelSubscription(await this.billingOwner(email, slug), DEMO_BILLING);
  }

  async resumePlan(email: string, slug: string) {
    await resumeSubscription(await this.billingOwner(email, slug), DEMO_BILLING);
  }

  /** A payment provider event, delivered as the development provider delivers it. */
  async providerEvent(slug: string, type: "payment_failed" | "payment_recovered" | "refund" | "dispute") {
    const id = `evt_demo_${slug}_${++this.eventCounter}`;
    await receiveProviderEvent(new Headers(), JSON.stringify({ id, type, organizationId: this.organizationId(slug) }), DEMO_BILLING);
  }

  /** Downloads the log as an owner or admin does (`search` as in the export link), and discards the file. */
  async exportLog(email: string, slug: string, search: string) {
    const access = await authorizeAuditExport(await this.member(email, slug), this.organizationId(slug));
    const file = await exportAuditLog(access, parseAuditExportQuery(search));
    await new Response(file.body).arrayBuffer();
    // The story's exports are its own moments, not today's: they must not spend today's budget.
    await reset("audit.export.user", access.user.id);
    await reset("audit.export.organization", access.organization.id);
  }

  private streamManager = async (email: string, slug: string) =>
    authorizeOrganization(await this.member(email, slug), this.organizationId(slug), "auditStream:manage");
  private readonly streams = new Map<string, { id: string; version: number }>();

  /** Adds an audit log destination under `label` (its name). */
  async createStream(email: string, slug: string, input: StreamCreation) {
    const { stream } = await createStream(await this.streamManager(email, slug), input, DEMO_OUTBOUND);
    this.streams.set(input.name, { id: stream.id, version: stream.version });
  }

  /** Edits the destination named `label` as its page would, from the version last seen. */
  async updateStream(email: string, slug: string, label: string, change: Omit<StreamChange, "version">) {
    const known = this.streams.get(label)!;
    const stream = await updateStream(
      await this.streamManager(email, slug),
      known.id,
      { ...change, version: known.version },
      DEMO_OUTBOUND,
    );
    this.streams.set(label, { id: stream.id, version: stream.version });
  }

  async testStream(email: string, slug: string, label: string) {
    await testStream(await this.streamManager(email, slug), this.streams.get(label)!.id, DEMO_OUTBOUND);
  }

  async deleteStream(email: string, slug: string, label: string) {
    await deleteStream(await this.streamManager(email, slug), this.streams.get(label)!.id);
  }

  /** Signs out the sessions the story opened (only its own: another lane may still be running
   * with the same people's accounts). The rate-limit counters were cleared as they filled. */
  async finish() {
    await prisma.session.deleteMany({ where: { id: { in: [...this.sessions.values()].map((auth) => auth.session.id) } } });
  }
}

// Invitations, the managers' side: invite, resend, cancel, and the pending list (the invitee's
// side, the link and accepting it, is invitation-acceptance.server.ts). The page's actions and the
// organization.* procedures call these. Each change locks the organization's row (then the
// invitation's), re-reads, checks, writes, records its event with an idempotency key scoped to
// organization, action and invitation, and, for a mail, adds the job in the same transaction: the
// invitation, its event and the outbox row commit together (docs/decisions/0021-invitations-and-outbox.md).
import { recordAs } from "~/audit/record.server";
import { prisma, type Tx } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { enqueueJob } from "~/jobs/queue.server";
import type { Language } from "~/i18n/config";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { consumeEach, refundEach, type PolicyName } from "~/lib/rate-limit.server";
import { lockOrganization } from "~/access/organization-lock.server";
import type { MemberManager } from "./members.server";
import { inviteRefusal } from "./member-rules";
import { setInvitationTokenHash } from "./organization-lookups.server";
import type { InviteMemberInput } from "./schemas";

/** How long an invitation link stays usable. A week covers a holiday; longer links linger. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const SEND_INVITATION_TASK = "send-invitation-mail";
/** Mail retries: e^1 … e^12 seconds apart, about two days in all. */
const MAIL_MAX_ATTEMPTS = 12;

/** Where the mail's link points and which language it is written in (the inviter's). */
export interface MailDelivery {
  language: Language;
  origin: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  /** "expired" is computed: a pending invitation past its expiry (expiry is not a recorded move). */
  status: "pending" | "accepted" | "canceled" | "expired";
  expiresAt: string;
  createdAt: string;
  lastSentAt: string | null;
  invitedBy: { id: string; name: string } | null;
}

const invitationSelect = {
  id: true,
  email: true,
  role: true,
  status: true,
  expiresAt: true,
  createdAt: true,
  lastSentAt: true,
  invitedBy: { select: { id: true, name: true } },
} as const;

type InvitationRow = {
  id: string;
  email: string;
  role: Role;
  status: InvitationView["status"];
  expiresAt: Date;
  createdAt: Date;
  lastSentAt: Date | null;
  invitedBy: { id: string; name: string } | null;
};

/** A pending invitation past its expiry (expiry is computed, not a recorded move). */
export function isExpired(row: { status: string; expiresAt: Date }, now = Date.now()): boolean {
  return row.status === "pending" && row.expiresAt.getTime() <= now;
}

function toView(row: InvitationRow): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: isExpired(row) ? "expired" : row.status,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    lastSentAt: row.lastSentAt?.toISOString() ?? null,
    invitedBy: row.invitedBy,
  };
}

/** Pending invitations, newest first; expired ones stay listed (marked) until invited again or canceled. */
export async function listPendingInvitations(access: MemberManager): Promise<InvitationView[]> {
  const rows = await prisma.invitation.findMany({
    where: { organizationId: access.organization.id, status: "pending" },
    select: invitationSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(toView);
}

/** The caller's role under the organization's lock: demoted or removed since the access check means no. */
async function lockAsManager(tx: Tx, access: MemberManager): Promise<Role> {
  await lockOrganization(tx, access.organization.id);
  const membership = await tx.membership.findUnique({
    where: { organizationId_userId: { organizationId: access.organization.id, userId: access.user.id } },
    select: { role: true },
  });
  if (!membership) throw new DomainError("FORBIDDEN", "notAMember");
  if (membership.role === "member") throw new DomainError("FORBIDDEN", "missingPermission");
  return membership.role;
}

/**
 * Invitation mails count against the organization's and the inviter's hourly budget. The points
 * are taken before the transaction and given back when no mail was queued: the limiter has its own
 * connections from the shared pool, and taking one while a transaction holds another (and the
 * organization's lock) would let a burst of invites starve the pool.
 */
async function withMailBudget<T>(access: MemberManager, work: () => Promise<T>, mailQueued: (result: T) => boolean): Promise<T> {
  const budgets: [PolicyName, string][] = [
    ["invitation.inviter", access.user.id],
    ["invitation.organization", access.organization.id],
  ];
  await consumeEach(budgets);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await refundEach(budgets);
    throw error;
  }
  if (!mailQueued(result)) await refundEach(budgets);
  return result;
}

/** One waiting mail per invitation: a resend replaces it. */
export function invitationMailJobKey(invitationId: string): string {
  return `invitation-mail:${invitationId}`;
}

function enqueueInvitationMail(tx: Tx, organizationId: string, invitationId: string, delivery: MailDelivery) {
  return enqueueJob(
    tx,
    SEND_INVITATION_TASK,
    { organizationId, invitationId, language: delivery.language, origin: delivery.origin },
    { jobKey: invitationMailJobKey(invitationId), maxAttempts: MAIL_MAX_ATTEMPTS },
  );
}

/**
 * Invites an address. Inviting an address that already has a pending, unexpired invitation
 * returns that invitation and changes nothing: no event, no mail (docs/product-rules.md,
 * Invitation). A pending one that has expired is closed (unrecorded) and a new one issued.
 */
export async function inviteMember(
  access: MemberManager,
  input: InviteMemberInput,
  delivery: MailDelivery,
): Promise<{ invitation: InvitationView; created: boolean }> {
  const organizationId = access.organization.id;
  const invite = () =>
    prisma.$transaction(async (tx) => {
      const actorRole = await lockAsManager(tx, access);
      const refusal = inviteRefusal(actorRole, input.role);
      if (refusal) throw new DomainError("FORBIDDEN", refusal);
      const member = await tx.membership.findFirst({ where: { organizationId, user: { email: input.email } }, select: { id: true } });
      if (member) throw new DomainError("CONFLICT", "invitation.alreadyMember");
      const pending = await tx.invitation.findFirst({
        where: { organizationId, email: input.email, status: "pending" },
        select: invitationSelect,
      });
      if (pending && !isExpired(pending)) return { invitation: toView(pending), created: false };
      if (pending) {
        await tx.invitation.update({
          where: { organizationId_id: { organizationId, id: pending.id } },
          data: { status: "expired" },
          select: { id: true },
        });
      }
      const created = await tx.invitation.create({
        data: {
          organizationId,
          email: input.email,
          role: input.role,
          invitedById: access.user.id,
          expiresAt: new Date(Date.now() + INVITATION_LIFETIME_MS),
        },
        select: invitationSelect,
      });
      await recordAs(access)(tx, {
        action: "invitation.sent",
        target: { type: "invitation", id: created.id },
        details: { role: created.role },
        idempotencyKey: `invitation.sent/${created.id}`,
      });
      await enqueueInvitationMail(tx, organizationId, created.id, delivery);
      return { invitation: toView(created), created: true };
    });
  return withMailBudget(access, invite, (result) => result.created);
}

/** Locks one of the organization's invitations (404 for ids of other organizations or none). */
async function lockInvitation(tx: Tx, organizationId: string, invitationId: string): Promise<InvitationRow> {
  if (!isUuid(invitationId)) throw new DomainError("NOT_FOUND", "invitation.notFound");
  const locked = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM invitations WHERE id = ${invitationId}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw new DomainError("NOT_FOUND", "invitation.notFound");
  return tx.invitation.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id: invitationId } }, select: invitationSelect });
}

function assertPending(row: InvitationRow) {
  if (row.status !== "pending") throw new DomainError("CONFLICT", "invitation.notPending");
  if (isExpired(row)) throw new DomainError("CONFLICT", "invitation.expired");
}

/** Sends the mail again with a new link (the old one stops working). Not an issuance: no event. */
export async function resendInvitation(access: MemberManager, invitationId: string, delivery: MailDelivery): Promise<InvitationView> {
  const resend = () =>
    prisma.$transaction(async (tx) => {
      await lockAsManager(tx, access);
      const invitation = await lockInvitation(tx, access.organization.id, invitationId);
      assertPending(invitation);
      await enqueueInvitationMail(tx, access.organization.id, invitation.id, delivery);
      return toView(invitation);
    });
  return withMailBudget(access, resend, () => true);
}

/** Cancels a pending invitation (expired ones too: canceling clears them from the list). */
export async function cancelInvitation(access: MemberManager, invitationId: string): Promise<InvitationView> {
  const organizationId = access.organization.id;
  return prisma.$transaction(async (tx) => {
    await lockAsManager(tx, access);
    const invitation = await lockInvitation(tx, organizationId, invitationId);
    if (invitation.status !== "pending") throw new DomainError("CONFLICT", "invitation.notPending");
    const canceled = await tx.invitation.update({
      where: { organizationId_id: { organizationId, id: invitation.id } },
      data: { status: "canceled", tokenHash: null },
      select: invitationSelect,
    });
    await setInvitationTokenHash(tx, { organizationId, invitationId: invitation.id }, null);
    await recordAs(access)(tx, {
      action: "invitation.canceled",
      target: { type: "invitation", id: invitation.id },
      details: {},
      idempotencyKey: `invitation.canceled/${invitation.id}`,
    });
    return toView(canceled);
  });
}

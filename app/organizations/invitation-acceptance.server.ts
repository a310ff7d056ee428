// Invitations, the invitee's side: the link's token, what the accept page shows for it, and
// accepting it with the signed-in account (the managers' side is invitations.server.ts).
import { LINK_TOKEN_PATTERN, linkTokenDigest, newLinkToken } from "~/lib/link-token";
import { lockOrganization } from "~/access/organization-lock.server";
import { recordAuditEvent, userActor } from "~/audit/record.server";
import type { Auth } from "~/auth/session.server";
import { prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import { isExpired } from "./invitations.server";
import { invitationByTokenHash } from "./organization-lookups.server";

/** SHA-256 of a token; only this is stored. Tokens carry 256 random bits, so a fast hash is enough. */
export const hashInvitationToken = linkTokenDigest;

export function newInvitationToken(): { token: string; hash: Uint8Array<ArrayBuffer> } {
  const token = newLinkToken();
  return { token, hash: hashInvitationToken(token) };
}

/**
 * What the accept page shows for a link, without changing anything. Only a link that can still be
 * accepted shows the invitation: unknown, expired, used, canceled and replaced links are all one
 * "invalid", so the page cannot be used to tell a once-valid token from a guessed one, nor to read
 * whom an old link invited where (docs/decisions/0033-demo-data-and-safe-start.md).
 */
export type InvitationPreview =
  | { state: "invalid" }
  | {
      state: "pending";
      organizationName: string;
      email: string;
      role: Role;
      inviterName: string | null;
      expiresAt: string;
    };

export async function previewInvitation(token: string): Promise<InvitationPreview> {
  if (!LINK_TOKEN_PATTERN.test(token)) return { state: "invalid" };
  const tokenHash = hashInvitationToken(token);
  // The lookup names the organization, so the invitation is then read on its shard alone.
  const found = await invitationByTokenHash(prisma, tokenHash);
  if (!found) return { state: "invalid" };
  const row = await prisma.invitation.findFirst({
    where: { organizationId: found.organizationId, id: found.invitationId, tokenHash },
    select: {
      status: true,
      email: true,
      role: true,
      expiresAt: true,
      organization: { select: { name: true } },
      invitedBy: { select: { name: true } },
    },
  });
  if (!row || row.status !== "pending" || isExpired(row)) return { state: "invalid" };
  return {
    state: "pending",
    organizationName: row.organization.name,
    email: row.email,
    role: row.role,
    inviterName: row.invitedBy?.name ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Accepts with the signed-in account whose e-mail the invitation names. The status change, the
 * membership and the event commit in one transaction (docs/product-rules.md, Recording rule 5);
 * a cancel racing with it waits for the invitation's lock, so exactly one of them wins.
 */
export async function acceptInvitation(auth: Auth, token: string): Promise<{ organizationId: string; role: Role }> {
  if (!LINK_TOKEN_PATTERN.test(token)) throw new DomainError("NOT_FOUND", "invitation.invalidToken");
  const hash = hashInvitationToken(token);
  const found = await invitationByTokenHash(prisma, hash);
  if (!found) throw new DomainError("NOT_FOUND", "invitation.invalidToken");
  const { organizationId } = found;
  return prisma.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM invitations
       WHERE organization_id = ${organizationId}::uuid AND id = ${found.invitationId}::uuid AND token_hash = ${hash} FOR UPDATE`;
    // Canceled, or replaced by a newer mail's link, while we waited for the lock.
    if (locked.length === 0) throw new DomainError("NOT_FOUND", "invitation.invalidToken");
    const invitation = await tx.invitation.findUniqueOrThrow({
      where: { organizationId_id: { organizationId, id: found.invitationId } },
      select: { id: true, email: true, role: true, status: true, expiresAt: true, organization: { select: { requireTwoFactor: true } } },
    });
    if (invitation.status !== "pending") throw new DomainError("CONFLICT", "invitation.notPending");
    if (isExpired(invitation)) throw new DomainError("CONFLICT", "invitation.expired");
    if (invitation.email !== auth.user.email.toLowerCase()) throw new DomainError("FORBIDDEN", "invitation.wrongAccount");
    if (invitation.organization.requireTwoFactor && !auth.user.twoFactorEnabled) {
      throw new DomainError("FORBIDDEN", "twoFactorRequiredByOrganization");
    }
    const member = await tx.membership.findUnique({
      where: { organizationId_userId: { organizationId, userId: auth.user.id } },
      select: { id: true },
    });
    if (member) throw new DomainError("CONFLICT", "invitation.alreadyMember");
    // The link keeps its hash (and lookup): opened again, it says "already accepted".
    await tx.invitation.update({
      where: { organizationId_id: { organizationId, id: invitation.id } },
      data: { status: "accepted" },
      select: { id: true },
    });
    // The invitation was mailed to this address and its link opened: the address is proven.
    await tx.user.updateMany({ where: { id: auth.user.id, emailVerifiedAt: null }, data: { emailVerifiedAt: new Date() } });
    await tx.membership.create({
      data: { organizationId, userId: auth.user.id, role: invitation.role },
      select: { id: true },
    });
    await recordAuditEvent(tx, {
      organizationId,
      action: "invitation.accepted",
      actor: userActor(auth.user),
      target: { type: "invitation", id: invitation.id },
      details: { role: invitation.role, userId: auth.user.id },
      idempotencyKey: `invitation.accepted/${invitation.id}`,
    });
    return { organizationId, role: invitation.role };
  });
}

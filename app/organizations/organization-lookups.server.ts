// The lookups of values that are unique across organizations (decision 0050): a slug, an
// invitation link's token. Each is a small table keyed by the value and naming the organization
// (a Citus reference table), so a read by the value finds the organization first and then reads
// the tenant row on that organization's shard alone. The uniqueness lives in the lookup's primary
// key. No foreign key can keep a lookup in step with its row (none may point from a reference
// table to a distributed one), so these functions are called in the same transaction as the change
// to the row, and deleteOrganizationWithLookups removes an organization's lookups with it (the
// 52-character secrets' lookup of decision 0048 too).
import type { prisma, Tx } from "~/db.server";

type Reader = Tx | typeof prisma;

/** Takes a slug for a new organization; a taken one fails as a unique violation on `slug`. */
export async function claimSlug(tx: Tx, organizationId: string, slug: string): Promise<void> {
  await tx.organizationSlug.create({ data: { slug, organizationId }, select: { slug: true } });
}

/**
 * Moves the organization to another slug (its old one becomes free); a taken one fails as
 * claimSlug does. An upsert, so an organization founded by the release before (during the
 * rolling upgrade, without a lookup row) gets its row here rather than failing.
 */
export async function moveSlug(tx: Tx, organizationId: string, slug: string): Promise<void> {
  await tx.organizationSlug.upsert({
    where: { organizationId },
    create: { slug, organizationId },
    update: { slug },
    select: { slug: true },
  });
}

/** The invitation whose current link has this token hash, or null. */
export async function invitationByTokenHash(db: Reader, tokenHash: Uint8Array<ArrayBuffer>) {
  return db.invitationToken.findUnique({ where: { tokenHash }, select: { organizationId: true, invitationId: true } });
}

/**
 * Keeps the lookup in step with `invitations.token_hash` (call it wherever that column changes,
 * under the invitation's row lock): a new hash replaces the invitation's row, null deletes it.
 */
export async function setInvitationTokenHash(
  tx: Tx,
  invitation: { organizationId: string; invitationId: string },
  tokenHash: Uint8Array<ArrayBuffer> | null,
): Promise<void> {
  if (tokenHash === null) {
    await tx.invitationToken.deleteMany({ where: invitation });
    return;
  }
  await tx.invitationToken.upsert({
    where: { organizationId_invitationId: invitation },
    create: { ...invitation, tokenHash },
    update: { tokenHash },
    select: { tokenHash: true },
  });
}

/** Drops the lookups of invitations being deleted (an account's deletion takes those addressed to it). */
export async function forgetInvitationTokens(tx: Tx, invitations: { organizationId: string; id: string }[]): Promise<void> {
  if (invitations.length === 0) return;
  await tx.invitationToken.deleteMany({
    where: { OR: invitations.map(({ organizationId, id }) => ({ organizationId, invitationId: id })) },
  });
}

/**
 * Deletes an organization (everything in it goes by the cascade) and every lookup row that names
 * it, in the caller's transaction: the organization's own deletion and an account deletion that
 * leaves it without members both come here.
 */
export async function deleteOrganizationWithLookups(tx: Tx, organizationId: string): Promise<void> {
  await tx.organization.delete({ where: { id: organizationId }, select: { id: true } });
  await tx.organizationSlug.deleteMany({ where: { organizationId } });
  await tx.invitationToken.deleteMany({ where: { organizationId } });
  await tx.billingProviderEventId.deleteMany({ where: { organizationId } });
  await tx.apiKeyLegacySecret.deleteMany({ where: { organizationId } });
}

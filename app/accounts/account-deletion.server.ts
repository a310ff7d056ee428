// Deleting one's own account (docs/decisions/0028-password-reset-and-account-deletion.md,
// docs/product-rules.md "Limits"):
// - organizations where the person is the only member are deleted, with their audit log, unrecorded;
// - where they were the only owner of an organization that keeps members, the longest-standing
//   admin (else member) becomes owner, recorded as member.role_changed by the `system` actor;
// - their memberships go by the cascade, without member.removed events;
// - nothing of them survives that names them: the user row (name, e-mail, password, two-factor),
//   sessions, recovery codes, reset links, invitations addressed to them and rate-limit counters
//   keyed by their address are deleted; events keep the opaque user id and read "deleted user".
import { lockExistingOrganizations } from "~/access/organization-lock.server";
import { prisma, type Tx } from "~/db.server";
import { isRetryableConflict } from "~/db-errors.server";
import { recordAuditEvent } from "~/audit/record.server";
import { accountPasswordMatches } from "~/accounts/account-security.server";
import { isFresh, type Auth } from "~/auth/session.server";
import { secondFactorMatches } from "~/auth/two-factor.server";
import type { Role } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import { invitationMailJobKey } from "~/organizations/invitations.server";
import { deleteOrganizationWithLookups, forgetInvitationTokens } from "~/organizations/organization-lookups.server";
import { resetMailJobKey } from "./password-reset.server";
import { EMAIL_KEYED_POLICIES, forgetRateLimits } from "~/lib/rate-limit.server";

/** The actor of what the system does on an account's behalf as it is deleted. */
export const ACCOUNT_DELETION_ACTOR = { kind: "system", id: "account-deletion" } as const;

export interface AccountDeletionInput {
  password: string;
  /** A TOTP or recovery code; required when the account has two-factor on. */
  code?: string;
  /** The account's e-mail address, typed to confirm. */
  confirm: string;
}

export interface AccountDeletion {
  /** Organizations deleted because the person was their only member. */
  deletedOrganizations: number;
  /** Organizations where someone else became owner. */
  promotedOwners: number;
}

/**
 * Proves it is them (a fresh session, the typed address, the password, the second factor when
 * enrolled), then deletes the account in one transaction. Every refusal changes nothing.
 */
export async function deleteAccount(auth: Auth, input: AccountDeletionInput): Promise<AccountDeletion> {
  if (!isFresh(auth)) throw new DomainError("FORBIDDEN", "freshSessionRequired");
  if (input.confirm.trim().toLowerCase() !== auth.user.email.toLowerCase()) {
    throw new DomainError("BAD_REQUEST", "account.confirmEmailMismatch");
  }
  if (!(await accountPasswordMatches(auth, input.password))) throw new DomainError("BAD_REQUEST", "account.passwordIncorrect");
  if (auth.user.twoFactorEnabled) {
    if (!input.code) throw new DomainError("BAD_REQUEST", "account.codeRequired");
    if (!(await secondFactorMatches(auth.user.id, input.code, { useUp: false })))
      throw new DomainError("BAD_REQUEST", "twoFactor.invalidCode");
  }
  return deleteAccountRecords(auth.user.id);
}

/** Runs the deletion, again from the start when a membership appeared while it took its locks
 * (or PostgreSQL chose it to break a deadlock with another account's operation). */
async function deleteAccountRecords(userId: string): Promise<AccountDeletion> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const result = await prisma.$transaction((tx) => deleteWithLocks(tx, userId));
      if (result !== "memberships changed") return result;
    } catch (error) {
      if (!isRetryableConflict(error)) throw error;
    }
  }
  throw new DomainError("CONFLICT", "account.busy");
}

async function organizationIdsOf(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT organization_id::text AS id FROM memberships WHERE user_id = ${userId}::uuid ORDER BY organization_id`;
  return rows.map((row) => row.id);
}

async function deleteWithLocks(tx: Tx, userId: string): Promise<AccountDeletion | "memberships changed"> {
  // Every organization of theirs is locked (in id order, like any other deletion, so two people
  // leaving shared organizations at once wait for each other instead of deadlocking), then the
  // rows that others lock before the account's row (a reset link being used, an invitation being
  // accepted), then the account's own row: from here no membership of theirs can appear or change.
  const organizationIds = await organizationIdsOf(tx, userId);
  await lockExistingOrganizations(tx, organizationIds);
  const account = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!account) throw new DomainError("UNAUTHORIZED", "unauthenticated");
  const { email } = account;
  await tx.passwordReset.deleteMany({ where: { userId } });
  const addressedToThem = await tx.invitation.findMany({ where: { email }, select: { id: true, organizationId: true } });
  if (addressedToThem.length > 0) {
    await tx.invitation.deleteMany({ where: { OR: addressedToThem.map(({ organizationId, id }) => ({ organizationId, id })) } });
    await forgetInvitationTokens(tx, addressedToThem);
  }
  // Gone meanwhile (the same account deleted from another session): nothing left to do here.
  const locked = await tx.$queryRaw<unknown[]>`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw new DomainError("UNAUTHORIZED", "unauthenticated");
  // Joined (an invitation accepted, an organization created) between the first read and the lock.
  const now = await organizationIdsOf(tx, userId);
  if (now.some((id) => !organizationIds.includes(id))) return "memberships changed";

  const result: AccountDeletion = { deletedOrganizations: 0, promotedOwners: 0 };
  for (const organizationId of now) {
    const outcome = await leaveOrganization(tx, organizationId, userId);
    if (outcome === "deleted") result.deletedOrganizations++;
    if (outcome === "promoted") result.promotedOwners++;
  }
  await forgetRateLimits(tx, EMAIL_KEYED_POLICIES, email);
  // Mails to them still waiting (or given up on: the last error may quote the address) go too.
  for (const key of [resetMailJobKey(userId), ...addressedToThem.map((i) => invitationMailJobKey(i.id))]) {
    await tx.$executeRaw`SELECT 1 FROM graphile_worker.remove_job(${key})`;
  }
  await forgetRateLimits(tx, ["auth.password.user", "auth.twofactor.user"], userId);
  // Sessions, memberships, recovery codes and reset links go by the cascade; keys, logos and
  // invitations they made stay with their organizations, no longer naming them.
  await tx.user.delete({ where: { id: userId }, select: { id: true } });
  return result;
}

interface Member {
  userId: string;
  role: Role;
}

/** What happens to one organization as its member's account goes (the organization is locked). */
async function leaveOrganization(tx: Tx, organizationId: string, userId: string): Promise<"deleted" | "promoted" | "left"> {
  const others = await tx.$queryRaw<Member[]>`
    SELECT user_id::text AS "userId", role::text AS role FROM memberships
    WHERE organization_id = ${organizationId}::uuid AND user_id <> ${userId}::uuid
    ORDER BY CASE role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, created_at, id`;
  if (others.length === 0) {
    await deleteOrganizationWithLookups(tx, organizationId);
    return "deleted";
  }
  const leaving = await tx.membership.findUniqueOrThrow({
    where: { organizationId_userId: { organizationId, userId } },
    select: { role: true },
  });
  // Another owner stays, or they were not an owner: the membership simply goes with the account.
  if (leaving.role !== "owner" || others[0]!.role === "owner") return "left";
  const successor = others[0]!;
  await tx.membership.update({
    where: { organizationId_userId: { organizationId, userId: successor.userId } },
    data: { role: "owner" },
    select: { id: true },
  });
  await recordAuditEvent(tx, {
    organizationId,
    action: "member.role_changed",
    actor: ACCOUNT_DELETION_ACTOR,
    target: { type: "user", id: successor.userId },
    details: { from: successor.role, to: "owner", automatic: true },
  });
  return "promoted";
}

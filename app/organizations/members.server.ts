// Members: list, change a role, remove, leave. The page's actions and the organization.*
// procedures call these. Every change locks the organization's row, re-reads the roles involved
// (the caller's too: it may have changed since the access check), applies the rules of
// member-rules.ts and records its event in the same transaction, only when something changed
// (docs/product-rules.md, Recording rules 1-3).
import type { OrganizationAccess } from "~/access/organization-access.server";
import { recordAs } from "~/audit/record.server";
import { prisma, type Tx } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { lockOrganization } from "~/access/organization-lock.server";
import { leaveRefusal, removalRefusal, roleChangeRefusal } from "./member-rules";

export type MemberManager = OrganizationAccess<"member:manage">;

export interface MemberView {
  userId: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
  twoFactor: boolean;
}

/** Every member, longest-standing first (any member may see who else belongs). */
export async function listMembers(access: OrganizationAccess): Promise<MemberView[]> {
  const rows = await prisma.membership.findMany({
    where: { organizationId: access.organization.id },
    select: { role: true, createdAt: true, user: { select: { id: true, name: true, email: true, twoFactorEnabledAt: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(({ role, createdAt, user }) => ({
    userId: user.id,
    name: user.name,
    email: user.email,
    role,
    joinedAt: createdAt.toISOString(),
    twoFactor: user.twoFactorEnabledAt !== null,
  }));
}

interface LockedMembers {
  roleOf(userId: string): Role | undefined;
  ownerCount: number;
}

/** Locks the organization and reads every member's role under the lock. */
async function lockMembers(tx: Tx, organizationId: string): Promise<LockedMembers> {
  await lockOrganization(tx, organizationId);
  const rows = await tx.membership.findMany({ where: { organizationId }, select: { userId: true, role: true } });
  const roles = new Map(rows.map((r) => [r.userId, r.role]));
  return { roleOf: (userId) => roles.get(userId), ownerCount: rows.filter((r) => r.role === "owner").length };
}

/** The caller's role as it is now; they may have been removed or demoted since the access check. */
function callerRole(members: LockedMembers, access: OrganizationAccess): Role {
  const role = members.roleOf(access.user.id);
  if (!role) throw new DomainError("FORBIDDEN", "notAMember");
  if (role === "member") throw new DomainError("FORBIDDEN", "missingPermission");
  return role;
}

function targetRole(members: LockedMembers, userId: string): Role {
  const role = isUuid(userId) ? members.roleOf(userId) : undefined;
  if (!role) throw new DomainError("NOT_FOUND", "member.notFound");
  return role;
}

async function memberView(tx: Tx, organizationId: string, userId: string): Promise<MemberView> {
  const row = await tx.membership.findUniqueOrThrow({
    where: { organizationId_userId: { organizationId, userId } },
    select: { role: true, createdAt: true, user: { select: { id: true, name: true, email: true, twoFactorEnabledAt: true } } },
  });
  return {
    userId: row.user.id,
    name: row.user.name,
    email: row.user.email,
    role: row.role,
    joinedAt: row.createdAt.toISOString(),
    twoFactor: row.user.twoFactorEnabledAt !== null,
  };
}

/** Changes a member's role; the same role again changes nothing and records nothing. */
export async function updateMemberRole(access: MemberManager, userId: string, role: Role): Promise<MemberView> {
  const organizationId = access.organization.id;
  return prisma.$transaction(async (tx) => {
    const members = await lockMembers(tx, organizationId);
    const actor = callerRole(members, access);
    const from = targetRole(members, userId);
    if (from === role) return memberView(tx, organizationId, userId);
    const refusal = roleChangeRefusal(actor, from, role, members.ownerCount);
    if (refusal) throw new DomainError(refusal === "member.lastOwner" ? "CONFLICT" : "FORBIDDEN", refusal);
    await tx.membership.update({ where: { organizationId_userId: { organizationId, userId } }, data: { role }, select: { id: true } });
    await recordAs(access)(tx, {
      action: "member.role_changed",
      target: { type: "user", id: userId },
      details: { from, to: role },
    });
    return memberView(tx, organizationId, userId);
  });
}

/** Removes another member and answers who it was. Removing yourself is leaving (its own rule). */
export async function removeMember(access: MemberManager, userId: string): Promise<MemberView> {
  const organizationId = access.organization.id;
  if (userId === access.user.id) throw new DomainError("CONFLICT", "member.cannotRemoveSelf");
  return prisma.$transaction(async (tx) => {
    const members = await lockMembers(tx, organizationId);
    const actor = callerRole(members, access);
    const role = targetRole(members, userId);
    const refusal = removalRefusal(actor, role, members.ownerCount);
    if (refusal) throw new DomainError(refusal === "member.lastOwner" ? "CONFLICT" : "FORBIDDEN", refusal);
    const removed = await memberView(tx, organizationId, userId);
    await deleteMembership(tx, organizationId, userId);
    await recordAs(access)(tx, {
      action: "member.removed",
      target: { type: "user", id: userId },
      details: { role, reason: "removed" },
    });
    return removed;
  });
}

/** The caller leaves the organization (any member; the last owner may not). */
export async function leaveOrganization(access: OrganizationAccess): Promise<void> {
  const organizationId = access.organization.id;
  const userId = access.user.id;
  await prisma.$transaction(async (tx) => {
    const members = await lockMembers(tx, organizationId);
    const role = members.roleOf(userId);
    if (!role) throw new DomainError("FORBIDDEN", "notAMember");
    const refusal = leaveRefusal(role, members.ownerCount);
    if (refusal) throw new DomainError("CONFLICT", refusal);
    await deleteMembership(tx, organizationId, userId);
    await recordAs(access)(tx, {
      action: "member.removed",
      target: { type: "user", id: userId },
      details: { role, reason: "left" },
    });
  });
}

async function deleteMembership(tx: Tx, organizationId: string, userId: string) {
  await tx.membership.delete({ where: { organizationId_userId: { organizationId, userId } }, select: { id: true } });
  await moveSessionsOff(tx, organizationId, userId);
}

/**
 * Sessions that have this organization active switch to the person's longest-held other
 * organization (none: no active organization, and the dashboard offers to create or pick one).
 * Called before a membership or the whole organization goes; `userId` limits it to one person.
 */
export async function moveSessionsOff(tx: Tx, organizationId: string, userId?: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE sessions s SET active_organization_id = (
      SELECT m.organization_id FROM memberships m
      WHERE m.user_id = s.user_id AND m.organization_id <> ${organizationId}::uuid
      ORDER BY m.created_at, m.id LIMIT 1)
    WHERE s.active_organization_id = ${organizationId}::uuid
      AND (${userId ?? null}::uuid IS NULL OR s.user_id = ${userId ?? null}::uuid)`;
}

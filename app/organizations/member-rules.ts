// Who may change whose membership, in one place (docs/decisions/0023-member-rules-and-settings.md).
// Both roles with member:manage (owners and admins) manage admins and members; only owners make,
// demote or remove owners, and only owners invite someone as owner. The last owner can be neither
// demoted nor removed, and cannot leave: an organization always keeps an owner. Pure functions:
// the callers run them under the organization's lock with roles re-read there.
import { Role } from "~/generated/prisma/enums";
import type { ErrorKey } from "~/lib/error-key";

/** The translation key (under errors:) of the reason a role change is refused, or null. */
export function roleChangeRefusal(actor: Role, from: Role, to: Role, ownerCount: number): ErrorKey | null {
  if ((from === "owner" || to === "owner") && actor !== "owner") return "member.ownerOnly";
  if (from === "owner" && to !== "owner" && ownerCount <= 1) return "member.lastOwner";
  return null;
}

export function removalRefusal(actor: Role, target: Role, ownerCount: number): ErrorKey | null {
  if (target === "owner" && actor !== "owner") return "member.ownerOnly";
  if (target === "owner" && ownerCount <= 1) return "member.lastOwner";
  return null;
}

export function leaveRefusal(role: Role, ownerCount: number): ErrorKey | null {
  return role === "owner" && ownerCount <= 1 ? "member.lastOwnerCannotLeave" : null;
}

export function inviteRefusal(actor: Role, role: Role): ErrorKey | null {
  return role === "owner" && actor !== "owner" ? "invitation.ownerOnly" : null;
}

/** The roles `actor` may hand out (invite forms and role menus offer only these). */
export function assignableRoles(actor: Role): Role[] {
  const all = Object.values(Role);
  return actor === Role.owner ? all : all.filter((role) => role !== Role.owner);
}

// Who may do what, in one place. Guards, procedures and the navigation all ask this map.
import type { Role } from "~/generated/prisma/enums";

export const PERMISSIONS = [
  "organization:update",
  "organization:delete",
  "member:manage",
  "apiKey:manage",
  "audit:view",
  "audit:export",
  "auditStream:manage",
  "billing:view",
  "billing:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  // Admins run the organization day to day; deleting it and what it pays for are the owners'
  // decisions alone (admins see the billing page read-only).
  admin: PERMISSIONS.filter((permission) => permission !== "organization:delete" && permission !== "billing:manage"),
  member: [],
};

export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

// Who may do what, in one place. Guards, procedures and the navigation all ask this map.
import type { Role } from "~/generated/prisma/enums";

export const PERMISSIONS = [
  "organization:update",
  "organization:delete",
  "member:manage",
  "apiKey:manage",
  "audit:view",
  "audit:export",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  // Admins run the organization day to day; deleting it is the owners' decision alone.
  admin: PERMISSIONS.filter((permission) => permission !== "organization:delete"),
  member: [],
};

export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

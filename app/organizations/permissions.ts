// Who may do what, in one place. Routes, procedures and the UI's navigation all ask this map.
import type { Role } from "~/generated/prisma/enums";

export const PERMISSIONS = [
  "organization:update",
  "member:manage",
  "apiKey:manage",
  "audit:view",
  "audit:export",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  member: [],
};

export const ROLES = ["owner", "admin", "member"] as const satisfies readonly Role[];

export function roleHas(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function permissionsOf(role: Role): readonly Permission[] {
  return ROLE_PERMISSIONS[role];
}

// The one check behind every organization-scoped page, procedure and download: the organization
// exists (404), the caller is a member (403), it is the session's active organization (403), the
// role holds the permission (403), and the organization's two-factor requirement is met (403).
import type { Auth } from "~/auth/session.server";
import { prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { roleHas, type Permission } from "./permissions";

export interface OrganizationAccess {
  organization: { id: string; name: string; slug: string; planId: string; billingState: string; requireTwoFactor: boolean };
  role: Role;
}

export async function authorizeOrganization(
  auth: Auth,
  organizationId: string,
  permission?: Permission,
  options: { requireActive?: boolean } = {},
): Promise<OrganizationAccess> {
  if (!isUuid(organizationId)) throw new DomainError("NOT_FOUND", "organizationNotFound");
  const organization = await prisma.organization.findUnique({
    where: { id: organizationId },
    select: {
      id: true,
      name: true,
      slug: true,
      planId: true,
      billingState: true,
      requireTwoFactor: true,
      memberships: { where: { userId: auth.user.id }, select: { role: true } },
    },
  });
  if (!organization) throw new DomainError("NOT_FOUND", "organizationNotFound");
  const { memberships, ...org } = organization;
  const membership = memberships[0];
  if (!membership) throw new DomainError("FORBIDDEN", "notAMember");
  if ((options.requireActive ?? true) && auth.session.activeOrganizationId !== org.id) {
    throw new DomainError("FORBIDDEN", "notActiveOrganization");
  }
  if (org.requireTwoFactor && !auth.user.twoFactorEnabled) {
    throw new DomainError("FORBIDDEN", "twoFactorRequiredByOrganization");
  }
  if (permission && !roleHas(membership.role, permission)) throw new DomainError("FORBIDDEN", "missingPermission");
  return { organization: org, role: membership.role };
}

/** For platform-admin views, which need no membership: only that the organization exists. */
export async function requireOrganizationExists(organizationId: string): Promise<void> {
  if (!isUuid(organizationId)) throw new DomainError("NOT_FOUND", "organizationNotFound");
  const found = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!found) throw new DomainError("NOT_FOUND", "organizationNotFound");
}

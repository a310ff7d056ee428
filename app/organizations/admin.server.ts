// Read-only organization data for the platform admin pages. No membership is involved; the
// routes' guard (a fresh platform-admin session) is the whole authorization.
import { prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";

export async function listAllOrganizations(limit = 200) {
  const rows = await prisma.organization.findMany({
    select: { id: true, name: true, slug: true, planId: true, createdAt: true, _count: { select: { memberships: true } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map(({ _count, createdAt, ...org }) => ({ ...org, createdAt: createdAt.toISOString(), members: _count.memberships }));
}

export async function getOrganizationForAdmin(organizationId: string) {
  if (!isUuid(organizationId)) throw new DomainError("NOT_FOUND", "organizationNotFound");
  const org = await prisma.organization.findUnique({
    where: { id: organizationId },
    select: { id: true, name: true, slug: true, planId: true, requireTwoFactor: true, createdAt: true, _count: { select: { memberships: true } } },
  });
  if (!org) throw new DomainError("NOT_FOUND", "organizationNotFound");
  const { _count, createdAt, ...rest } = org;
  return { ...rest, createdAt: createdAt.toISOString(), members: _count.memberships };
}

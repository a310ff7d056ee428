// Organization data for the platform admin pages. No membership is involved: the proof that the
// caller is a platform admin (app/access/) is the whole authorization.
import type { PlatformAdminAccess, SupportAccess } from "~/access/organization-access.server";
import { prisma } from "~/db.server";

export async function listAllOrganizations(_admin: PlatformAdminAccess, limit = 200) {
  const rows = await prisma.organization.findMany({
    select: { id: true, name: true, slug: true, planId: true, createdAt: true, _count: { select: { memberships: true } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map(({ _count, createdAt, ...org }) => ({ ...org, createdAt: createdAt.toISOString(), members: _count.memberships }));
}

/** What the admin's organization page adds to the support check: when it was created and how many
 * members it has. Kept out of the check itself, which every support audit read runs. */
export async function organizationOverview(support: SupportAccess) {
  const { createdAt, _count } = await prisma.organization.findUniqueOrThrow({
    where: { id: support.organization.id },
    select: { createdAt: true, _count: { select: { memberships: true } } },
  });
  return { createdAt: createdAt.toISOString(), members: _count.memberships };
}

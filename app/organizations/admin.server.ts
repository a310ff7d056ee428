// Organization data for the platform admin pages. No membership is involved: the proof that the
// caller is a platform admin (app/access/) is the whole authorization.
import type { PlatformAdminAccess, SupportTarget } from "~/access/organization-access.server";
import { prisma } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { decodeKeysetCursor, encodeKeysetCursor, splitPage } from "~/lib/keyset-cursor.server";
import { readPrepared } from "~/lib/read-routing.server";
import type { StoredPlanId } from "~/plans/catalog";

export const ORGANIZATION_SEARCH_PAGE_SIZE = 25;

export interface OrganizationSearchRow {
  id: string;
  name: string;
  slug: string;
  planId: StoredPlanId;
  createdAt: string;
  members: number;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern built from what someone typed. */
const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Organizations whose name or slug contains `q` (any case), or whose id is `q`; all of them when
 * `q` is empty. Ordered by name then id, keyset paged: the cursor is the last row's (name, id).
 */
export async function searchOrganizations(
  _admin: PlatformAdminAccess,
  { q, cursor }: { q?: string; cursor?: string },
): Promise<{ organizations: OrganizationSearchRow[]; nextCursor: string | null }> {
  const after = cursor === undefined ? null : decodeKeysetCursor(cursor, 2);
  if (cursor !== undefined && (!after || !isUuid(after[1]))) throw new DomainError("BAD_REQUEST", "organizationSearch.badCursor");
  const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (q) {
    const pattern = likeContaining(q);
    conditions.push(
      isUuid(q)
        ? Prisma.sql`(o.id = ${q.toLowerCase()}::uuid OR o.name ILIKE ${pattern} OR o.slug ILIKE ${pattern})`
        : Prisma.sql`(o.name ILIKE ${pattern} OR o.slug ILIKE ${pattern})`,
    );
  }
  if (after) conditions.push(Prisma.sql`(o.name, o.id) > (${after[0]!}, ${after[1]!}::uuid)`);
  const rows = await readPrepared<Omit<OrganizationSearchRow, "createdAt" | "members"> & { createdAt: Date; members: number }>(
    Prisma.sql`
      SELECT o.id::text, o.name, o.slug, o.plan_id AS "planId", o.created_at AS "createdAt",
             (SELECT count(*)::int FROM memberships m WHERE m.organization_id = o.id) AS members
        FROM organizations o
       WHERE ${Prisma.join(conditions, " AND ")}
       ORDER BY o.name, o.id
       LIMIT ${ORGANIZATION_SEARCH_PAGE_SIZE + 1}`,
  );
  const { page, lastBeforeMore: last } = splitPage(rows, ORGANIZATION_SEARCH_PAGE_SIZE);
  return {
    organizations: page.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    nextCursor: last ? encodeKeysetCursor([last.name, last.id]) : null,
  };
}

/** What the admin's organization page shows beyond the organization itself: when it was created,
 * its members and owners, and its keys in use. Read without a support reason: it says who to
 * talk to, not what they did. */
export async function organizationOverview(target: SupportTarget) {
  const id = target.organization.id;
  const [organization, owners, keys] = await Promise.all([
    prisma.organization.findUnique({ where: { id }, select: { createdAt: true, _count: { select: { memberships: true } } } }),
    prisma.membership.findMany({
      where: { organizationId: id, role: "owner" },
      select: { user: { select: { id: true, name: true, email: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
    prisma.apiKey.count({ where: { organizationId: id, revokedAt: null } }),
  ]);
  // Deleted since the check found it.
  if (!organization) throw new DomainError("NOT_FOUND", "organizationNotFound");
  return {
    createdAt: organization.createdAt.toISOString(),
    members: organization._count.memberships,
    owners: owners.map((o) => o.user),
    activeKeys: keys,
  };
}

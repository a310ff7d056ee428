// Organizations: creating one, switching the session's active one, settings and members.
// Organization-scoped functions take the caller's proven access (app/access/).
import { authorizeOrganization, type OrganizationAccess } from "~/access/organization-access.server";
import type { AuditDetails } from "~/audit/catalog";
import { recordAuditEvent, userActor } from "~/audit/record.server";
import { setActiveOrganization, type Auth } from "~/auth/session.server";
import { DEFAULT_PLAN } from "~/billing/plans";
import { isUniqueViolation, prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import { slugFromName, type OrganizationInput, type OrganizationSettingsInput } from "./schemas";

export interface OrganizationSummary {
  id: string;
  name: string;
  slug: string;
  role: Role;
}

/** The user's organizations with their plans, by name (the app shell's switcher and dashboard). */
export async function listOrganizationsWithPlanOf(userId: string): Promise<(OrganizationSummary & { planId: string })[]> {
  const memberships = await prisma.membership.findMany({
    where: { userId },
    select: { role: true, organization: { select: { id: true, name: true, slug: true, planId: true } } },
    orderBy: [{ organization: { name: "asc" } }, { organizationId: "asc" }],
  });
  return memberships.map(({ role, organization }) => ({ ...organization, role }));
}

/** The user's organizations, by name (organization.list). */
export async function listOrganizationsOf(userId: string): Promise<OrganizationSummary[]> {
  return (await listOrganizationsWithPlanOf(userId)).map(({ id, name, slug, role }) => ({ id, name, slug, role }));
}

/**
 * Creates an organization with the caller as owner and makes it the session's active one. A slug
 * the caller chose must be free (409 otherwise); one derived from the name gets a short random
 * suffix when the plain form is taken, since the caller never asked for that exact slug.
 */
export async function createOrganization(auth: Auth, input: OrganizationInput): Promise<OrganizationSummary> {
  const derived = slugFromName(input.name);
  const candidates = input.slug
    ? [input.slug]
    : [derived, ...Array.from({ length: 3 }, () => `${derived}-${crypto.randomUUID().slice(0, 6)}`)];
  for (const [attempt, slug] of candidates.entries()) {
    try {
      return await insertOrganization(auth, input.name, slug);
    } catch (error) {
      if (!isUniqueViolation(error, "slug")) throw error;
      if (attempt === candidates.length - 1) throw new DomainError("CONFLICT", "slugTaken");
    }
  }
  throw new DomainError("CONFLICT", "slugTaken");
}

async function insertOrganization(auth: Auth, name: string, slug: string): Promise<OrganizationSummary> {
  const organization = await prisma.$transaction(async (tx) => {
    const created = await tx.organization.create({
      data: { name, slug, planId: DEFAULT_PLAN },
      select: { id: true, name: true, slug: true },
    });
    await tx.membership.create({ data: { organizationId: created.id, userId: auth.user.id, role: "owner" }, select: { id: true } });
    // Creation is audited; the initial owner membership is part of it, not an event of its own.
    await recordAuditEvent(tx, {
      organizationId: created.id,
      action: "organization.created",
      actor: userActor(auth.user),
      target: { type: "organization", id: created.id },
      details: { name: created.name, slug: created.slug },
    });
    await setActiveOrganization(auth.session.id, created.id, tx);
    return created;
  });
  auth.session.activeOrganizationId = organization.id;
  return { ...organization, role: "owner" };
}

/** Makes one of the caller's organizations the session's active one (membership is enough). */
export async function switchActiveOrganization(auth: Auth, organizationId: string): Promise<OrganizationSummary> {
  const { organization, role } = await authorizeOrganization(auth, organizationId, undefined, { requireActive: false });
  await setActiveOrganization(auth.session.id, organization.id);
  auth.session.activeOrganizationId = organization.id;
  return { id: organization.id, name: organization.name, slug: organization.slug, role };
}

/** The settings as the access check loaded them: any member may read them. */
export function organizationSettings(access: OrganizationAccess) {
  const { id, name, slug, logoUrl, planId, requireTwoFactor } = access.organization;
  return { id, name, slug, logoUrl, planId, requireTwoFactor };
}

const settingsSelect = { id: true, name: true, slug: true, logoUrl: true, planId: true, requireTwoFactor: true } as const;

/**
 * Saves the settings and records `organization.settings_changed` with what actually changed, in
 * the same transaction. The row is locked and re-read first, so the recorded "from" values are the
 * ones this change replaced; an unchanged submission records nothing (docs/product-rules.md, Recording rules 1-3).
 */
export async function updateOrganizationSettings(access: OrganizationAccess<"organization:update">, input: OrganizationSettingsInput) {
  const organizationId = access.organization.id;
  // Turning the requirement on without a second factor of one's own would lock the caller out.
  if (input.requireTwoFactor && !access.user.twoFactorEnabled) {
    throw new DomainError("CONFLICT", "twoFactorRequiredByOrganization");
  }
  try {
    return await prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM organizations WHERE id = ${organizationId}::uuid FOR NO KEY UPDATE`;
      const current = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: settingsSelect });
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const field of ["name", "slug", "logoUrl", "requireTwoFactor"] as const) {
        if (current[field] !== input[field]) changes[field] = { from: current[field], to: input[field] };
      }
      if (Object.keys(changes).length === 0) return current;
      const updated = await tx.organization.update({
        where: { id: organizationId },
        data: { name: input.name, slug: input.slug, logoUrl: input.logoUrl, requireTwoFactor: input.requireTwoFactor },
        select: settingsSelect,
      });
      await recordAuditEvent(tx, {
        organizationId,
        action: "organization.settings_changed",
        actor: userActor(access.user),
        target: { type: "organization", id: organizationId },
        details: changes as AuditDetails<"organization.settings_changed">,
      });
      return updated;
    });
  } catch (error) {
    if (isUniqueViolation(error, "slug")) throw new DomainError("CONFLICT", "slugTaken");
    throw error;
  }
}

export async function listMembers(access: OrganizationAccess) {
  return prisma.membership.findMany({
    where: { organizationId: access.organization.id },
    select: { role: true, createdAt: true, user: { select: { id: true, name: true, email: true, twoFactorEnabledAt: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

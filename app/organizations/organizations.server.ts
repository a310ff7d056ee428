// Organizations: creating one, switching the session's active one, settings, deleting one.
// Organization-scoped functions take the caller's proven access (app/access/).
import { authorizeOrganization, type OrganizationAccess } from "~/access/organization-access.server";
import type { AuditDetails } from "~/audit/catalog";
import { recordAs, recordAuditEvent, userActor } from "~/audit/record.server";
import { isFresh, setActiveOrganization, type Auth } from "~/auth/session.server";
import { DEFAULT_PLAN, storedPlanId, type StoredPlanId } from "~/plans/catalog";
import { prisma } from "~/db.server";
import { isUniqueViolation } from "~/db-errors.server";
import type { Role } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import { lockOrganization } from "~/access/organization-lock.server";
import { moveSessionsOff } from "./members.server";
import { claimSlug, deleteOrganizationWithLookups, moveSlug } from "./organization-lookups.server";
import { slugFromName, type OrganizationInput, type OrganizationUpdate } from "./schemas";

export interface OrganizationSummary {
  id: string;
  name: string;
  slug: string;
  role: Role;
}

/** The user's organizations with their plans and logos, by name (the app shell's switcher and dashboard). */
export async function listOrganizationsWithPlanOf(
  userId: string,
): Promise<(OrganizationSummary & { planId: StoredPlanId; logoId: string | null })[]> {
  const memberships = await prisma.membership.findMany({
    where: { userId },
    select: { role: true, organization: { select: { id: true, name: true, slug: true, planId: true, logoId: true } } },
    orderBy: [{ organization: { name: "asc" } }, { organizationId: "asc" }],
  });
  return memberships.map(({ role, organization }) => ({ ...organization, planId: storedPlanId(organization.planId), role }));
}

/** The user's organizations, by name (organization.list). */
export async function listOrganizationsOf(userId: string): Promise<OrganizationSummary[]> {
  return (await listOrganizationsWithPlanOf(userId)).map(({ id, name, slug, role }) => ({ id, name, slug, role }));
}

/**
 * Creates an organization with the caller (whose address is verified) as owner and makes it the session's active one. A slug
 * the caller chose must be free (409 otherwise); one derived from the name gets a short random
 * suffix when the plain form is taken, since the caller never asked for that exact slug.
 */
export async function createOrganization(auth: Auth, input: OrganizationInput): Promise<OrganizationSummary> {
  // An account whose address nobody has proven yet cannot found organizations (decision 0031).
  if (!auth.user.emailVerified) throw new DomainError("FORBIDDEN", "emailVerification.required");
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
    const id = crypto.randomUUID();
    // The slug's lookup first: a taken slug fails here, before anything else is written.
    await claimSlug(tx, id, slug);
    const created = await tx.organization.create({
      data: { id, name, slug, planId: DEFAULT_PLAN },
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
  const { id, name, slug, logoId, planId, requireTwoFactor } = access.organization;
  return { id, name, slug, logoId, planId, requireTwoFactor };
}

export type OrganizationSettings = ReturnType<typeof organizationSettings>;

const settingsSelect = { id: true, name: true, slug: true, logoId: true, planId: true, requireTwoFactor: true } as const;
const settingsOf = <T extends { planId: string }>(row: T) => ({ ...row, planId: storedPlanId(row.planId) });
const SETTINGS_FIELDS = ["name", "slug", "logoId", "requireTwoFactor"] as const;

/**
 * Saves the settings given (absent ones stay) and records `organization.settings_changed` with
 * what actually changed, in the same transaction. The row is locked and re-read first, so the
 * recorded "from" values are the ones this change replaced; an unchanged submission records
 * nothing (docs/product-rules.md, Recording rules 1-3). A logo must be one of this
 * organization's uploads (404 otherwise, as for any id of another organization).
 */
export async function updateOrganizationSettings(
  access: OrganizationAccess<"organization:update">,
  input: OrganizationUpdate,
): Promise<OrganizationSettings> {
  const organizationId = access.organization.id;
  // Turning the requirement on without a second factor of one's own would lock the caller out.
  if (input.requireTwoFactor && !access.user.twoFactorEnabled && !access.organization.requireTwoFactor) {
    throw new DomainError("CONFLICT", "organization.enableTwoFactorFirst");
  }
  try {
    return await prisma.$transaction(async (tx) => {
      await lockOrganization(tx, organizationId);
      const current = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: settingsSelect });
      if (input.logoId && input.logoId !== current.logoId) {
        const owned = await tx.organizationLogo.findUnique({
          where: { organizationId_id: { organizationId, id: input.logoId } },
          select: { id: true },
        });
        if (!owned) throw new DomainError("NOT_FOUND", "organization.logoNotFound");
      }
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const field of SETTINGS_FIELDS) {
        const next = input[field];
        if (next !== undefined && current[field] !== next)
          changes[field === "logoId" ? "logo" : field] = { from: current[field], to: next };
      }
      if (Object.keys(changes).length === 0) return settingsOf(current);
      if (input.slug !== undefined && input.slug !== current.slug) await moveSlug(tx, organizationId, input.slug);
      const updated = await tx.organization.update({
        where: { id: organizationId },
        data: { name: input.name, slug: input.slug, logoId: input.logoId, requireTwoFactor: input.requireTwoFactor },
        select: settingsSelect,
      });
      await recordAs(access)(tx, {
        action: "organization.settings_changed",
        target: { type: "organization", id: organizationId },
        details: changes as AuditDetails<"organization.settings_changed">,
      });
      return settingsOf(updated);
    });
  } catch (error) {
    if (isUniqueViolation(error, "slug")) throw new DomainError("CONFLICT", "slugTaken");
    throw error;
  }
}

/**
 * Deletes the organization with everything in it: keys, invitations, memberships, logos and its
 * audit log, which goes by the cascade and is not recorded anywhere (docs/product-rules.md,
 * Recording rules 6-7). Owners only, with a fresh session and the name typed to confirm. Sessions
 * that had it active move to another of their organizations first.
 */
export async function deleteOrganization(
  access: OrganizationAccess<"organization:delete">,
  auth: Auth,
  confirmName: string,
): Promise<void> {
  if (!isFresh(auth)) throw new DomainError("FORBIDDEN", "freshSessionRequired");
  const organizationId = access.organization.id;
  await prisma.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const current = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } });
    if (confirmName.trim().normalize("NFC") !== current.name) throw new DomainError("BAD_REQUEST", "organization.confirmNameMismatch");
    const caller = await tx.membership.findUnique({
      where: { organizationId_userId: { organizationId, userId: access.user.id } },
      select: { role: true },
    });
    if (caller?.role !== "owner") throw new DomainError("FORBIDDEN", "missingPermission");
    await moveSessionsOff(tx, organizationId);
    await deleteOrganizationWithLookups(tx, organizationId);
  });
}

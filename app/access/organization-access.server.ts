// Authorization as a value. Every organization-scoped domain function takes one of the access
// values below instead of an organization id: the only way to get one is to pass its check here,
// so a read or write that skipped the check does not compile. One query per check, shared by a
// page's loaders (memberships.server.ts); the value carries what the check loaded (the organization, the caller's role), so nothing asks again.
//
// The organization check: the organization exists (404), the caller is a member (403), it is the
// session's active organization (403), the organization's two-factor requirement is met (403),
// and the role holds the permission (403). docs/decisions/0004-active-organization.md
import { isFresh, SUPPORT_FRESH_WINDOW, type Auth, type SessionUser } from "~/auth/session.server";
import { prisma } from "~/db.server";
import type { Role } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import type { ErrorKey } from "~/lib/error-key";
import { isUuid } from "~/lib/ids";
import { accessibleOrganizationSelect, organizationsOf, type AccessibleOrganization } from "./memberships.server";
import { roleHas, type Permission } from "./permissions";
import { planHas, storedPlanId } from "~/plans/catalog";
import { billingBlocksPaidFeatures } from "./billing-pause";

declare const organizationGrant: unique symbol;
declare const supportGrant: unique symbol;
declare const platformAdminGrant: unique symbol;
declare const supportTargetGrant: unique symbol;

export type { AccessibleOrganization };

/**
 * Proof that `user` passed the organization check for the permissions `P` (none: any member).
 * The grant is a function of `P` so that access proven for more permissions is accepted where
 * fewer are needed, and never the other way round.
 */
export interface OrganizationAccess<P extends Permission = never> {
  readonly organization: AccessibleOrganization;
  readonly role: Role;
  readonly user: SessionUser;
  readonly [organizationGrant]: (permission: P) => void;
}

/** Proof that a platform admin passed their check (two-factor enrolled; fresh session when asked). */
export interface PlatformAdminAccess {
  readonly user: SessionUser;
  /** Support access is opened per session (docs/decisions/0026-support-console.md). */
  readonly sessionId: string;
  readonly [platformAdminGrant]: true;
}

/** The reason a platform admin stated when opening support access, in force for this session. */
export interface SupportGrant {
  readonly reason: string;
  readonly ticket: string | null;
  readonly openedAt: Date;
}

/** A platform admin looking at one organization for support: no membership involved, and the
 * reason they stated for this session (the support console's records carry it). */
export interface SupportAccess {
  readonly organization: AccessibleOrganization;
  readonly user: SessionUser;
  readonly grant: SupportGrant;
  readonly [supportGrant]: true;
}

/** An organization a platform admin may open support access to (it exists; nothing read yet). */
export interface SupportTarget {
  readonly organization: AccessibleOrganization;
  readonly admin: PlatformAdminAccess;
  /** The grant in force for this session, if one is open. */
  readonly grant: SupportGrant | null;
  readonly [supportTargetGrant]: true;
}

/** Who may read an organization's audit log: its owners and admins, or support. */
export type AuditReader = OrganizationAccess<"audit:view"> | SupportAccess;

interface CheckOptions {
  /** Default true; false only for switching to the organization. */
  requireActive?: boolean;
}

/** Membership only (no permission named): proves nothing more than `OrganizationAccess`. Two
 * signatures, so that the permission type is never guessed from where the result is used. */
export async function authorizeOrganization(
  auth: Auth,
  organizationId: string,
  permission?: undefined,
  options?: CheckOptions,
): Promise<OrganizationAccess>;
export async function authorizeOrganization<P extends Permission>(
  auth: Auth,
  organizationId: string,
  permission: P,
  options?: CheckOptions,
): Promise<OrganizationAccess<P>>;
export async function authorizeOrganization(
  auth: Auth,
  organizationId: string,
  permission?: Permission,
  options: CheckOptions = {},
): Promise<OrganizationAccess> {
  const { organization, role } = await membershipOf(auth, organizationId, options.requireActive ?? true);
  if (organization.requireTwoFactor && !auth.user.twoFactorEnabled) {
    throw new DomainError("FORBIDDEN", "twoFactorRequiredByOrganization");
  }
  if (permission && !roleHas(role, permission)) throw new DomainError("FORBIDDEN", "missingPermission");
  return { organization, role, user: auth.user } as unknown as OrganizationAccess;
}

/** The organization exists (404), the caller is a member (403), and it is the active one (403). */
async function membershipOf(auth: Auth, requestedId: string, requireActive: boolean) {
  if (!isUuid(requestedId)) throw new DomainError("NOT_FOUND", "organizationNotFound");
  // A UUID in capitals is the same UUID; ids are compared here as PostgreSQL writes them.
  const organizationId = requestedId.toLowerCase();
  const found = (await organizationsOf(auth)).find((o) => o.id === organizationId);
  if (!found) {
    // Not one of the caller's: 404 when it does not exist at all, else 403.
    const exists = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
    throw exists ? new DomainError("FORBIDDEN", "notAMember") : new DomainError("NOT_FOUND", "organizationNotFound");
  }
  const { role, ...organization } = found;
  if (requireActive && auth.session.activeOrganizationId !== organization.id) {
    throw new DomainError("FORBIDDEN", "notActiveOrganization");
  }
  return { organization, role };
}

/** Who may export the audit log: the permissions the export route proves. */
export type AuditExporter = OrganizationAccess<"audit:view" | "audit:export">;

/** Why someone who can open the audit log cannot export it now, in the order the export route checks. */
export type AuditExportBlocker = "permission" | "plan" | "twoFactor" | "billing";

const BLOCKER_MESSAGES: Record<Exclude<AuditExportBlocker, "billing">, ErrorKey> = {
  permission: "missingPermission",
  plan: "auditExport.planLacksExport",
  twoFactor: "twoFactorRequiredByOrganization",
};

/** The first reason, if any, why this member cannot export the log (the page says it; the route refuses with it). */
export function auditExportBlocker(access: OrganizationAccess): AuditExportBlocker | null {
  return exportBlockerOf(access.organization, access.role, access.user);
}

function exportBlockerOf(organization: AccessibleOrganization, role: Role, user: SessionUser): AuditExportBlocker | null {
  if (!roleHas(role, "audit:view") || !roleHas(role, "audit:export")) return "permission";
  if (!planHas(organization.planId, "auditExport")) return "plan";
  if (organization.requireTwoFactor && !user.twoFactorEnabled) return "twoFactor";
  if (billingBlocksPaidFeatures(organization.billingState)) return "billing";
  return null;
}

/**
 * The export's check (docs/product-rules.md, Authentication rules 3, 4 and 6), in the export
 * route's order: the organization exists (404), membership (403), the active organization (403),
 * `audit:view` and `audit:export` (403), the plan's `auditExport` flag (403), the organization's
 * two-factor requirement (403). Billing (409) is the caller's to check after the cross-site and
 * input checks; this check lets it pass.
 */
export async function authorizeAuditExport(auth: Auth, organizationId: string): Promise<AuditExporter> {
  const { organization, role } = await membershipOf(auth, organizationId, true);
  const blocker = exportBlockerOf(organization, role, auth.user);
  if (blocker && blocker !== "billing") throw new DomainError("FORBIDDEN", BLOCKER_MESSAGES[blocker]);
  return { organization, role, user: auth.user } as unknown as AuditExporter;
}

/** The caller's role holds `permission` (for showing or hiding what a page offers). */
export function accessHas(access: OrganizationAccess, permission: Permission): boolean {
  return roleHas(access.role, permission);
}

/** The same access, proven for `permission` too when the role (loaded by the check) holds it: a
 * page that any member may open can offer more to those who may do more, without a second check. */
export function accessFor<P extends Permission>(access: OrganizationAccess, permission: P): OrganizationAccess<P> | null {
  return roleHas(access.role, permission) ? (access as unknown as OrganizationAccess<P>) : null;
}

/**
 * Platform admins only, with two-factor enrolled on their account; support work also needs a
 * fresh session (password and second factor within SUPPORT_FRESH_WINDOW). Callers decide what a
 * refusal looks like to someone who is not a platform admin (the admin tree: 404).
 */
export function authorizePlatformAdmin(auth: Auth, { fresh }: { fresh: boolean }): PlatformAdminAccess {
  if (!auth.user.isPlatformAdmin) throw new DomainError("FORBIDDEN", "platformAdminRequired");
  if (!auth.user.twoFactorEnabled) throw new DomainError("FORBIDDEN", "platformAdminTwoFactorRequired");
  if (fresh && !isFresh(auth, SUPPORT_FRESH_WINDOW)) throw new DomainError("FORBIDDEN", "freshSessionRequired");
  return { user: auth.user, sessionId: auth.session.id } as unknown as PlatformAdminAccess;
}

/** Any existing organization (404 for ids that are not one), with the support grant this
 * session holds for it, if any. */
export async function findSupportTarget(admin: PlatformAdminAccess, organizationId: string): Promise<SupportTarget> {
  if (!isUuid(organizationId)) throw new DomainError("NOT_FOUND", "organizationNotFound");
  const found = await prisma.organization.findUnique({
    where: { id: organizationId },
    select: {
      ...accessibleOrganizationSelect,
      supportAccess: { where: { sessionId: admin.sessionId }, select: { reason: true, ticket: true, openedAt: true } },
    },
  });
  if (!found) throw new DomainError("NOT_FOUND", "organizationNotFound");
  const { supportAccess, ...organization } = found;
  return {
    organization: { ...organization, planId: storedPlanId(organization.planId) },
    admin,
    grant: supportAccess[0] ?? null,
  } as unknown as SupportTarget;
}

/** The support access a target's open grant gives, or null until the admin stated a reason. */
export function supportAccessOf(target: SupportTarget): SupportAccess | null {
  if (!target.grant) return null;
  return { organization: target.organization, user: target.admin.user, grant: target.grant } as unknown as SupportAccess;
}

/** Support access to an organization: it exists (404) and this session opened access to it with
 * a reason (403 until then). */
export async function authorizeSupport(admin: PlatformAdminAccess, organizationId: string): Promise<SupportAccess> {
  const access = supportAccessOf(await findSupportTarget(admin, organizationId));
  if (!access) throw new DomainError("FORBIDDEN", "supportAccessNotOpened");
  return access;
}

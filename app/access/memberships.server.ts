// The signed-in user's organizations with their role, read in one statement. A page load runs
// several loaders in parallel (the shell's, the page's), each needing the user's organizations or
// an access check; for a read-only request (GET/HEAD) they share one read, so a page pays for it
// once. Requests that change something never share: an action's loaders must see its change.
import type { Auth } from "~/auth/session.server";
import { queryPrepared } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import type { BillingState, Role } from "~/generated/prisma/enums";
import type { StoredPlanId } from "~/plans/catalog";

/** An organization as the access checks load it: what access values carry, so nothing asks again. */
export interface AccessibleOrganization {
  id: string;
  name: string;
  slug: string;
  logoId: string | null;
  planId: StoredPlanId;
  billingState: BillingState;
  requireTwoFactor: boolean;
}

/** The same columns for a Prisma select (support targets); `satisfies` keeps the two lists one. */
export const accessibleOrganizationSelect = {
  id: true,
  name: true,
  slug: true,
  logoId: true,
  planId: true,
  billingState: true,
  requireTwoFactor: true,
} as const satisfies Record<keyof AccessibleOrganization, true>;

/** One of the user's organizations, with their role in it. */
export interface UserOrganization extends AccessibleOrganization {
  role: Role;
}

const shared = new WeakMap<Auth, Promise<UserOrganization[]> | null>();

/** Lets this request's loaders share one read of the memberships (call for GET/HEAD only). */
export function shareMembershipReads(auth: Auth): void {
  if (!shared.has(auth)) shared.set(auth, null);
}

/** Enums are read as text, as the row type says; any stored plan id is a `StoredPlanId`. Every
 * signed-in page reads it: a prepared statement on the pool, without Prisma's per-query work. */
function readMemberships(userId: string): Promise<UserOrganization[]> {
  return queryPrepared<UserOrganization>(Prisma.sql`
    SELECT o.id, o.name, o.slug, o.logo_id AS "logoId", o.plan_id AS "planId", o.billing_state::text AS "billingState",
           o.require_two_factor AS "requireTwoFactor", m.role::text AS role
    FROM memberships m JOIN organizations o ON o.id = m.organization_id
    WHERE m.user_id = ${userId}::uuid
    ORDER BY o.name, o.id`);
}

/** The user's organizations by name, with their role in each. */
export function organizationsOf(auth: Auth): Promise<UserOrganization[]> {
  if (!shared.has(auth)) return readMemberships(auth.user.id);
  let read = shared.get(auth);
  if (!read) {
    read = readMemberships(auth.user.id);
    shared.set(auth, read);
  }
  return read;
}

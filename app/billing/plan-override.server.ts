// Setting an organization's plan by hand, without the payment provider: the operator's
// `npm run admin:set-plan -- ORGANIZATION PLAN` and a platform admin in the support console
// (docs/decisions/0039-housekeeping-plans-and-migrations.md). This is how a self-hosted
// deployment, which has no provider, gives an organization audit export. One rule for both:
// the plan changes and the billing state becomes `active`, recorded as `billing.plan_changed` in
// the same transaction, under the organization's lock; the same plan again changes and records
// nothing; an unknown plan or organization changes nothing.
import { recordAuditEvent } from "~/audit/record.server";
import { lockOrganization } from "~/access/organization-lock.server";
import { prisma, type Tx } from "~/db.server";
import type { BillingState } from "~/generated/prisma/enums";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { isPlanId, storedPlanId, type PlanId, type StoredPlanId } from "~/plans/catalog";

/** The actor of a plan set with `npm run admin:set-plan` (whoever holds the database's URL). */
export const OPERATOR_ACTOR = { kind: "system", id: "operator" } as const;
/** The actor of a plan set in the support console; who did it, and why, is in the support records. */
export const SUPPORT_ACTOR = { kind: "system", id: "support" } as const;

export interface PlanOverride {
  actor: typeof OPERATOR_ACTOR | typeof SUPPORT_ACTOR;
  /** Writes more records of the change in its transaction (the support console's record). */
  alsoRecord?: (tx: Tx, change: { from: StoredPlanId; to: PlanId }) => Promise<void>;
}

export interface PlanOverrideResult {
  outcome: "changed" | "unchanged";
  organization: { id: string; name: string; slug: string };
  from: StoredPlanId;
  to: PlanId;
  /** The billing state now (`active` after a change; as it was when unchanged). */
  state: BillingState;
}

/** The organization an operator named: its id, or its slug (any case). Also `npm run audit:verify`'s. */
export async function findOrganization(tx: Tx, reference: string) {
  const typed = reference.trim().toLowerCase();
  // A slug is found through its lookup (decision 0050), then the organization by its id.
  const id = isUuid(typed) ? typed : (await tx.organizationSlug.findUnique({ where: { slug: typed } }))?.organizationId;
  return id ? tx.organization.findUnique({ where: { id }, select: { id: true } }) : null;
}

export async function setOrganizationPlan(reference: string, planId: string, override: PlanOverride): Promise<PlanOverrideResult> {
  if (!isPlanId(planId)) throw new DomainError("BAD_REQUEST", "billing.unknownPlan");
  return prisma.$transaction(async (tx) => {
    const found = await findOrganization(tx, reference);
    if (!found) throw new DomainError("NOT_FOUND", "organizationNotFound");
    await lockOrganization(tx, found.id);
    const current = await tx.organization.findUniqueOrThrow({
      where: { id: found.id },
      select: { id: true, name: true, slug: true, planId: true, billingState: true },
    });
    const from = storedPlanId(current.planId);
    const organization = { id: current.id, name: current.name, slug: current.slug };
    if (from === planId) return { outcome: "unchanged", organization, from, to: planId, state: current.billingState };
    await tx.organization.update({ where: { id: current.id }, data: { planId, billingState: "active" }, select: { id: true } });
    await recordAuditEvent(tx, {
      organizationId: current.id,
      action: "billing.plan_changed",
      actor: override.actor,
      target: { type: "organization", id: current.id },
      details: {
        plan: { from, to: planId },
        ...(current.billingState === "active" ? {} : { state: { from: current.billingState, to: "active" } }),
      },
    });
    await override.alsoRecord?.(tx, { from, to: planId });
    return { outcome: "changed", organization, from, to: planId, state: "active" };
  });
}

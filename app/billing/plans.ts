// The plan catalog. Each plan declares its feature flags; code asks `planHas(planId, flag)`.
// To give another plan audit export, set `auditExport: true` in its declaration: nothing else changes.
export interface PlanFlags {
  auditExport: boolean;
}

export const PLANS = {
  free: { name: "Free", flags: { auditExport: false } },
  team: { name: "Team", flags: { auditExport: false } },
  enterprise: { name: "Enterprise", flags: { auditExport: true } },
} as const satisfies Record<string, { name: string; flags: PlanFlags }>;

export type PlanId = keyof typeof PLANS;
export const DEFAULT_PLAN: PlanId = "free";

function isPlanId(value: string): value is PlanId {
  return Object.hasOwn(PLANS, value);
}

/** Unknown plan ids (e.g. a plan removed from the catalog) have no flags. */
export function planHas(planId: string, flag: keyof PlanFlags): boolean {
  return isPlanId(planId) ? PLANS[planId].flags[flag] : false;
}

/** The plan's display name; an id no longer in the catalog shows as itself. */
export function planName(planId: string): string {
  return isPlanId(planId) ? PLANS[planId].name : planId;
}

/**
 * Billing states that block paid features (the export answers 409 in them). Today every
 * organization is `ok`; the payment provider's states arrive with billing (docs/contract.md, Plans
 * and billing states): `past_due` stays usable, `past_due_blocked` and `canceled` block.
 */
const BLOCKING_BILLING_STATES: ReadonlySet<string> = new Set(["past_due_blocked", "canceled"]);

export function billingBlocksPaidFeatures(billingState: string): boolean {
  return BLOCKING_BILLING_STATES.has(billingState);
}

/** The display names of the plans that have `flag` (e.g. to say where audit export is included). */
export function planNamesWith(flag: keyof PlanFlags): string[] {
  return Object.values(PLANS)
    .filter((plan) => plan.flags[flag])
    .map((plan) => plan.name);
}

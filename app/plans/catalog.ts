// The plan catalog and the billing states: what a plan includes and which states pause it. Pure
// data and rules (no server code): access, audit and the pages read it in the browser too.
// Each plan declares its feature flags; code asks `planHas(planId, flag)`. To give another plan
// audit export, set `auditExport: true` in its declaration: nothing else changes (the billing page,
// billing.get and the export gate all read the flag from here).
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
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];
export const PLAN_FLAGS = ["auditExport"] as const satisfies readonly (keyof PlanFlags)[];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && Object.hasOwn(PLANS, value);
}

/** A plan someone pays for: everything but the default plan. */
export function isPaidPlan(planId: string): boolean {
  return planId !== DEFAULT_PLAN;
}

/** Unknown plan ids (e.g. a plan removed from the catalog) have no flags. */
export function planHas(planId: string, flag: keyof PlanFlags): boolean {
  return isPlanId(planId) ? PLANS[planId].flags[flag] : false;
}

/** Every flag of the plan, as read from the catalog now (billing.get's `features`). */
export function planFeatures(planId: string): PlanFlags {
  return Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, planHas(planId, flag)])) as unknown as PlanFlags;
}

/** The plan's display name; an id no longer in the catalog shows as itself. */
export function planName(planId: string): string {
  return isPlanId(planId) ? PLANS[planId].name : planId;
}

/**
 * Billing states (docs/contract.md, Plans and billing states; docs/decisions/0029-billing.md).
 * `active` and `past_due` (one failed payment) keep paid features; `past_due_blocked` (a second
 * failed payment) and `canceled` pause them: the export answers 409 until the state is `active`
 * again. The database refuses any other value (a CHECK constraint).
 */
export const BILLING_STATES = ["active", "past_due", "past_due_blocked", "canceled"] as const;
export type BillingState = (typeof BILLING_STATES)[number];

export function isBillingState(value: unknown): value is BillingState {
  return typeof value === "string" && (BILLING_STATES as readonly string[]).includes(value);
}

const BLOCKING_BILLING_STATES: ReadonlySet<string> = new Set<BillingState>(["past_due_blocked", "canceled"]);

export function billingBlocksPaidFeatures(billingState: string): boolean {
  return BLOCKING_BILLING_STATES.has(billingState);
}

/** The display names of the plans that have `flag` (e.g. to say where audit export is included). */
export function planNamesWith(flag: keyof PlanFlags): string[] {
  return Object.values(PLANS)
    .filter((plan) => plan.flags[flag])
    .map((plan) => plan.name);
}

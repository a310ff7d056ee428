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

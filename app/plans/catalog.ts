// The plan catalog: what each plan includes. Pure data and rules (no server code): access, audit
// and the pages read it in the browser too. (The billing states are the database's `BillingState`
// enum; which of them pause paid features is app/access/billing-pause.ts.)
// Each plan declares its feature flags; code asks `planHas(planId, flag)`. To give another plan
// audit export, set `auditExport: true` in its declaration: nothing else changes (the billing page,
// billing.get and the export gate all read the flag from here).
export interface PlanFlags {
  auditExport: boolean;
  /** Streaming the audit log to the organization's own destinations (app/audit-streams/). */
  auditStreaming: boolean;
}

/**
 * What a plan offers, as the billing page lists it (labels in the `billing` locale namespace under
 * `plans.highlights.<id>`). The flags above are what the code enforces; these are the plan's
 * promise in words, and a highlight that names a flag (`auditExport`) must agree with it (a test
 * checks). Support levels are the operator's promise, not something the software enforces.
 */
export const PLAN_HIGHLIGHTS = [
  "apiKeys",
  "auditLog",
  "members",
  "twoFactor",
  "communitySupport",
  "emailSupport",
  "auditExport",
  "auditStreaming",
  "prioritySupport",
] as const;
export type PlanHighlight = (typeof PLAN_HIGHLIGHTS)[number];

interface PlanDeclaration {
  name: string;
  flags: PlanFlags;
  /** US dollars per organization per month (the development provider charges nothing). */
  monthlyPriceUsd: number;
  /** What the plan includes, in the order the page lists it (docs/decisions/0034-german-keys-billing-dark-mode.md). */
  highlights: readonly PlanHighlight[];
}

const BASICS = ["apiKeys", "auditLog", "members", "twoFactor"] as const;

export const PLANS = {
  free: {
    name: "Free",
    flags: { auditExport: false, auditStreaming: false },
    monthlyPriceUsd: 0,
    highlights: [...BASICS, "communitySupport"],
  },
  team: {
    name: "Team",
    flags: { auditExport: false, auditStreaming: false },
    monthlyPriceUsd: 49,
    highlights: [...BASICS, "emailSupport"],
  },
  enterprise: {
    name: "Enterprise",
    flags: { auditExport: true, auditStreaming: true },
    monthlyPriceUsd: 299,
    highlights: [...BASICS, "auditExport", "auditStreaming", "prioritySupport"],
  },
} as const satisfies Record<string, PlanDeclaration>;

export type PlanId = keyof typeof PLANS;
export const DEFAULT_PLAN: PlanId = "free";
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];
export const PLAN_FLAGS = ["auditExport", "auditStreaming"] as const satisfies readonly (keyof PlanFlags)[];

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && Object.hasOwn(PLANS, value);
}

declare const retired: unique symbol;
/** A stored plan id that today's catalog no longer has: it shows as itself and has no flags. */
export type RetiredPlanId = string & { readonly [retired]: true };
/**
 * A plan id as read from the database. The column is text with no CHECK (decision 0029): the
 * catalog may drop a plan that organizations still have, so a stored id is a `PlanId` or a retired
 * one, never just any string. `isPlanId` tells them apart.
 */
export type StoredPlanId = PlanId | RetiredPlanId;

export function storedPlanId(value: string): StoredPlanId {
  return isPlanId(value) ? value : (value as RetiredPlanId);
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

/** The display names of the plans that have `flag` (e.g. to say where audit export is included). */
export function planNamesWith(flag: keyof PlanFlags): string[] {
  return Object.values(PLANS)
    .filter((plan) => plan.flags[flag])
    .map((plan) => plan.name);
}

/** The plan's price and highlights for the billing page; null for a plan no longer in the catalog. */
export function planOffering(planId: string): { monthlyPriceUsd: number; highlights: readonly PlanHighlight[] } | null {
  if (!isPlanId(planId)) return null;
  const { monthlyPriceUsd, highlights } = PLANS[planId];
  return { monthlyPriceUsd, highlights };
}

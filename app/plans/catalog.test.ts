import { describe, expect, it } from "vitest";
import { PLAN_FLAGS, PLAN_HIGHLIGHTS, PLAN_IDS, PLANS, planOffering } from "~/plans/catalog";

describe("plan catalog offerings", () => {
  it("gives every plan a price and highlights, and a highlight naming a flag agrees with the flag", () => {
    for (const id of PLAN_IDS) {
      const plan = PLANS[id];
      expect(plan.monthlyPriceUsd).toBeGreaterThanOrEqual(0);
      expect(plan.highlights.length).toBeGreaterThan(0);
      for (const highlight of plan.highlights) expect(PLAN_HIGHLIGHTS).toContain(highlight);
      for (const flag of PLAN_FLAGS) expect((plan.highlights as readonly string[]).includes(flag), `${id} ${flag}`).toBe(plan.flags[flag]);
    }
  });

  it("prices rise with what the plan includes, and a plan the catalog dropped has no offering", () => {
    expect(PLANS.free.monthlyPriceUsd).toBe(0);
    expect(PLANS.team.monthlyPriceUsd).toBeGreaterThan(PLANS.free.monthlyPriceUsd);
    expect(PLANS.enterprise.monthlyPriceUsd).toBeGreaterThan(PLANS.team.monthlyPriceUsd);
    expect(planOffering("legacy-gold")).toBeNull();
    expect(planOffering("team")).toEqual({ monthlyPriceUsd: PLANS.team.monthlyPriceUsd, highlights: PLANS.team.highlights });
  });
});

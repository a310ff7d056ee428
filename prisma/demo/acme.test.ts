// Acme's story runs on whatever day `npm start` first loads it, so it must hold on every weekday:
// the weekly compliance export is planned on Mondays, and no export may fall while the plan was
// canceled (exports are paused then, and the story's step would fail, and with it the start).
// Planned here against a world that only notes each call and when the story made it.
import { describe, expect, it } from "vitest";
import { planAcme } from "./acme.ts";
import { seededRandom, Timeline } from "./timeline.ts";
import type { DemoWorld } from "./world.ts";

/** The story's calls in story order: each domain step's name and moment. */
async function acmeCalls(now: Date): Promise<{ name: string; at: Date }[]> {
  const timeline = new Timeline(now);
  const calls: { name: string; at: Date }[] = [];
  const answer = { id: "x", token: "x", secret: "x", key: { id: "x" } };
  const world = new Proxy({} as DemoWorld, {
    get: (_, name) =>
      name === "timeline"
        ? timeline
        : (..._args: unknown[]) => {
            calls.push({ name: String(name), at: timeline.current() });
            return Promise.resolve(answer);
          },
  });
  planAcme(world, seededRandom(20261125));
  await timeline.run();
  return calls;
}

describe("Acme's story", () => {
  for (let weekday = 0; weekday < 7; weekday++) {
    const now = new Date(Date.UTC(2026, 10, 23 + weekday, 12, 0)); // Monday 2026-11-23, then each day after
    it(`exports only while the plan is not canceled, told on ${now.toUTCString().slice(0, 3)}`, async () => {
      const calls = await acmeCalls(now);
      let canceled = false;
      const pausedExports: string[] = [];
      for (const call of calls) {
        if (call.name === "cancelPlan") canceled = true;
        if (call.name === "resumePlan") canceled = false;
        if (call.name === "exportLog" && canceled) pausedExports.push(call.at.toISOString());
      }
      expect(calls.filter((call) => call.name === "cancelPlan")).toHaveLength(1);
      expect(calls.filter((call) => call.name === "exportLog").length).toBeGreaterThan(10);
      expect(pausedExports).toEqual([]);
    });
  }
});

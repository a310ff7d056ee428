// The demo's lanes: one per organization. Nothing in one organization's story depends on the
// other's (different people, keys, invitations and rate-limit keys), so the lanes run at the same
// time; within a lane the steps run in story order. Each lane's events are told apart by their
// organization, so the timeline's marks need only order the lane's own steps
// (docs/decisions/0033-demo-data-and-safe-start.md).
import { planAcme } from "./acme.ts";
import { planGlobex } from "./globex.ts";
import { seededRandom, Timeline, type Step } from "./timeline.ts";
import { DemoWorld, type KeyFacts } from "./world.ts";

export const LANES = {
  acme: { plan: planAcme, seed: 20261125 },
  globex: { plan: planGlobex, seed: 20261126 },
} as const;

export type LaneName = keyof typeof LANES;

export interface LaneResult {
  organizationId: string;
  steps: Step[];
  keys: KeyFacts[];
}

/** Plans and runs one organization's story, then signs its people out and clears its rate-limit counters. */
export async function runLane(
  name: LaneName,
  userIds: ReadonlyMap<string, string>,
  now: Date,
  stopped: () => boolean = () => false,
): Promise<LaneResult> {
  const timeline = new Timeline(now);
  const world = new DemoWorld(timeline, userIds);
  LANES[name].plan(world, seededRandom(LANES[name].seed));
  await timeline.run(stopped);
  await world.finish();
  return { organizationId: world.organizationId(name), steps: timeline.steps, keys: [...world.keys.values()] };
}

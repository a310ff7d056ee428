// The demo history's clock. The story plans each change at a moment of the past 90 days; the
// timeline runs them through the domain functions in that order, now, and notes after each one a
// UUIDv7 drawn from the same generator as the audit events' ids (one per process, monotonic: the
// uuid package keeps a sequence within a millisecond). So the events a step wrote are exactly
// those whose ids lie between the previous step's mark and its own, and backdate.ts can move
// each to its planned moment afterwards (docs/decisions/0033-demo-data-and-safe-start.md).
import { v7 as uuidv7 } from "uuid";

const DAY = 24 * 60 * 60 * 1000;

export interface Step {
  /** When the step happened in the story. */
  at: Date;
  /** Greater than every event id the step (and those before it) wrote, smaller than any later one. */
  upTo: string;
}

interface Planned {
  at: Date;
  order: number;
  run: () => Promise<unknown>;
}

export class Timeline {
  private readonly agenda: Planned[] = [];
  readonly steps: Step[] = [];
  /** Midnight UTC of today. */
  private readonly today: number;
  private running: Date | undefined;

  constructor(readonly now: Date) {
    this.today = Math.floor(now.getTime() / DAY) * DAY;
  }

  /** `daysAgo` days before today, at hh:mm UTC. */
  day(daysAgo: number, hour = 9, minute = 0): Date {
    return new Date(this.today - daysAgo * DAY + (hour * 60 + minute) * 60_000);
  }

  /** Schedules a change of the story. Same moment: in the order planned. */
  plan(at: Date, run: () => Promise<unknown>): void {
    if (!(at.getTime() < this.now.getTime())) throw new Error(`demo step planned in the future: ${at.toISOString()}`);
    this.agenda.push({ at, order: this.agenda.length, run });
  }

  /** The story's moment of the step running now. */
  current(): Date {
    if (!this.running) throw new Error("no demo step is running");
    return this.running;
  }

  /** Runs every planned change in story order, one after the other; stops early when `stopped` says so. */
  async run(stopped: () => boolean = () => false): Promise<void> {
    const ordered = [...this.agenda].sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
    for (const step of ordered) {
      if (stopped()) return;
      this.running = step.at;
      await step.run();
      this.steps.push({ at: step.at, upTo: uuidv7() });
    }
  }
}

/** A small deterministic random source (mulberry32), so every first start tells the same story. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

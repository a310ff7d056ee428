// How much slower this machine runs the same work right after a pause, with no server involved: a
// random walk over an 8 MB array, timed warm and then as the first pass after each pause. On this
// project's virtual machines a process that sleeps loses its processor caches to the host's other
// tenants: the first pass after a pause of 0.2 s or more took 2-3x its warm time, with no page
// fault and no collection (docs/decisions/0068-first-requests-after-a-pause.md). 8 MB because it
// stays in the caches while the process runs (a 16 MB walk's warm time itself swung 7-60 ms with
// the host's load). bench/audit-view.ts prints it beside the server's first requests after a pause.
import { setTimeout as sleep } from "node:timers/promises";
import { median } from "./stats.ts";

const STEPS = 1 << 19;

/** An array whose values form one random cycle: following it touches memory in no order a cache can guess. */
function randomCycle(length: number): Int32Array {
  const order = Int32Array.from({ length }, (_, i) => i);
  for (let i = length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const next = new Int32Array(length);
  for (let i = 0; i < length; i++) next[order[i]!] = order[(i + 1) % length]!;
  return next;
}

function walkMs(next: Int32Array): number {
  const started = performance.now();
  let at = 0;
  for (let step = 0; step < STEPS; step++) at = next[at]!;
  const ms = performance.now() - started;
  if (at < 0) throw new Error("unreachable: keeps the walk from being optimised away");
  return ms;
}

export interface ColdCacheProbe {
  megabytes: number;
  pauseMs: number;
  /** Median of back-to-back walks. */
  warmMs: number;
  /** Median over the pauses of the first walk after each. */
  firstAfterPauseMs: number;
  ratio: number;
}

export async function probeColdCache({ megabytes = 8, pauseMs = 2_000, pauses = 5 } = {}): Promise<ColdCacheProbe> {
  const next = randomCycle((megabytes * 1024 * 1024) / Int32Array.BYTES_PER_ELEMENT);
  for (let i = 0; i < 5; i++) walkMs(next);
  const warmMs = median(Array.from({ length: 7 }, () => walkMs(next)));
  const first: number[] = [];
  for (let i = 0; i < pauses; i++) {
    await sleep(pauseMs);
    first.push(walkMs(next));
  }
  const firstAfterPauseMs = median(first);
  return { megabytes, pauseMs, warmMs, firstAfterPauseMs, ratio: firstAfterPauseMs / warmMs };
}

// Interleaved rounds of autocannon load against servers side by side (bench/api-key-auth.ts,
// bench/authenticate-routing.ts): each case's median round, and its server's CPU per answered
// request from /proc. Rounds alternate their order, so a burst of load elsewhere on the machine
// falls on every side; ratios are the medians of the rounds' own.
import type { Result } from "autocannon";
import { run, type Scenario } from "./authenticate-load.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { processCpuMs, startChild, startProductionServer, stopChild } from "./servers.ts";
import { median } from "./stats.ts";

export interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Starts the servers a run compares, each on a free port with `env` (its database): a plain
 * server script of bench/servers/, or the production start of a checkout (this one or a release). */
export function serverStarters(env: Record<string, string>) {
  return {
    child: async (name: string, script: string): Promise<Server> => {
      const port = String(await freePort());
      const started = await startChild(script, { ...env, PORT: port });
      return { name, url: `http://127.0.0.1:${port}`, pid: started.pid!, stop: () => stopChild(started) };
    },
    production: async (name: string, root: string): Promise<Server> => {
      const started = await startProductionServer(root, { ...env, PORT: String(await freePort()) });
      return { name, url: started.url, pid: started.child.pid!, stop: () => stopChild(started.child) };
    },
  };
}

export interface Case extends Scenario {
  server: Server;
  /** Every answer is a 401 (malformed keys); otherwise every answer is 2xx. */
  expect401?: boolean;
  results: Result[];
  cpuMs: number[];
}

export interface Measured {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU per answered request, µs. */
  cpuMicros: number;
  roundRps: number[];
  roundCpuMicros: number[];
  answers: string;
}

export async function measureInterleaved(warmup: number, duration: number, rounds: number, cases: Case[]): Promise<Measured[]> {
  for (const c of cases) await run(c, warmup);
  for (let round = 0; round < rounds; round++) {
    for (const c of round % 2 === 0 ? cases : cases.toReversed()) {
      const before = processCpuMs(c.server.pid);
      c.results.push(await run(c, duration / rounds));
      c.cpuMs.push(processCpuMs(c.server.pid) - before);
    }
  }
  for (const c of cases) {
    // A ratio of unlike work measures nothing: every answer must be the one the case is about (401s
    // for the malformed keys, 2xx for the rest), in every round.
    const wrong = c.results.filter((r) => r.errors > 0 || r["2xx"] + r.non2xx === 0 || (c.expect401 ? r["2xx"] > 0 : r.non2xx > 0));
    if (wrong.length)
      throw new Error(
        `${c.label}: answers other than expected, or none, in ${wrong.length} round(s): the figures would compare unlike work`,
      );
  }
  return cases.map((c) => {
    const total = (pick: (r: Result) => number) => c.results.reduce((sum, r) => sum + pick(r), 0);
    const answered = total((r) => r["2xx"] + r.non2xx);
    const measured: Measured = {
      label: c.label,
      rps: median(c.results.map((r) => r.requests.average)),
      p50: median(c.results.map((r) => r.latency.p50)),
      p99: median(c.results.map((r) => r.latency.p99)),
      cpuMicros: (c.cpuMs.reduce((a, b) => a + b, 0) * 1000) / answered,
      roundRps: c.results.map((r) => r.requests.average),
      roundCpuMicros: c.results.map((r, i) => (c.cpuMs[i]! * 1000) / Math.max(1, r["2xx"] + r.non2xx)),
      answers: `2xx ${total((r) => r["2xx"])}, 4xx ${total((r) => r["4xx"])}, 5xx ${total((r) => r["5xx"])}, errors ${total((r) => r.errors)}`,
    };
    console.log(
      `  ${measured.label.padEnd(40)} ${measured.rps.toFixed(0).padStart(6)} req/s   p50 ${String(measured.p50).padStart(3)} ms   p99 ${String(measured.p99).padStart(3)} ms   ${measured.cpuMicros.toFixed(0).padStart(4)} µs CPU   (${measured.answers})`,
    );
    return measured;
  });
}

/** The median over the rounds of a / b, each round's own figures. */
export const pairedRatio = (a: number[], b: number[]) => median(a.map((value, i) => value / b[i]!));

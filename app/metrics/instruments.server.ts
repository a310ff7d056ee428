// What the code counts as it runs: requests by route family and status class, authenticate
// outcomes, rate-limit refusals. Until enableMetrics (./registry.server.ts) creates them, every
// function here returns at once: with METRICS_TOKEN unset nobody can read the figures, so nothing
// is collected (docs/decisions/0038-metrics-and-correlation.md). The request figures are plain
// numbers (./request-metrics.server.ts); the others, rarer, are prom-client counters whose
// label-bound children are made once and kept.
import { Counter, type Registry } from "prom-client";
import { RequestMetrics } from "./request-metrics.server";

export type AuthenticateOutcome = "ok" | "unauthorized" | "forbidden";

interface Instruments {
  requests: RequestMetrics;
  authenticate: Record<AuthenticateOutcome, Counter.Internal>;
  refusals: Counter;
  refusalsByPolicy: Map<string, Counter.Internal>;
}

/** Kept on globalThis, as the database pool is: every copy of this module (the dev server reloads
 * modules; the tests load the edge from source beside the built bundle) counts into one set. */
const shared = globalThis as typeof globalThis & { __metricsInstruments?: Instruments };

/** Creates the instruments in `registry` (once; later calls keep the first). */
export function createInstruments(registry: Registry): void {
  if (shared.__metricsInstruments) return;
  const authenticate = new Counter({
    name: "keyledger_authenticate_total",
    help: "apiKey.authenticate answers by outcome: ok, unauthorized (unknown, expired, revoked, malformed or missing key), forbidden (scope not held).",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const refusals = new Counter({
    name: "keyledger_rate_limit_refusals_total",
    help: "Requests refused by a rate-limit policy (429), by policy.",
    labelNames: ["policy"],
    registers: [registry],
  });
  const instruments: Instruments = {
    requests: new RequestMetrics(),
    authenticate: {
      ok: authenticate.labels("ok"),
      unauthorized: authenticate.labels("unauthorized"),
      forbidden: authenticate.labels("forbidden"),
    },
    refusals,
    refusalsByPolicy: new Map(),
  };
  // Shown at 0 from the start, so a rate of them is defined before the first one happens.
  for (const child of Object.values(instruments.authenticate)) child.inc(0);
  shared.__metricsInstruments = instruments;
}

/** One answered request. `family` comes from a fixed list (app/edge/route-family.server.ts), never the path. */
export function observeHttpRequest(family: string, status: number, seconds: number): void {
  shared.__metricsInstruments?.requests.observe(family, status, seconds);
}

/** The request figures in the text exposition format ("" before the instruments exist). */
export function renderRequestMetrics(): string {
  return shared.__metricsInstruments?.requests.render() ?? "";
}

export function countAuthentication(outcome: AuthenticateOutcome): void {
  shared.__metricsInstruments?.authenticate[outcome].inc();
}

/** `policy` is a name from the fixed list in app/lib/rate-limit.server.ts. */
export function countRateLimitRefusal(policy: string): void {
  const active = shared.__metricsInstruments;
  if (!active) return;
  let child = active.refusalsByPolicy.get(policy);
  if (!child) {
    child = active.refusals.labels(policy);
    active.refusalsByPolicy.set(policy, child);
  }
  child.inc();
}

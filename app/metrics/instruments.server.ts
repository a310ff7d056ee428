// What the code counts as it runs: requests by route family and status class, authenticate
// outcomes, rate-limit refusals. Until enableMetrics (./registry.server.ts) creates them, every
// function here returns at once: with METRICS_TOKEN unset nobody can read the figures, so nothing
// is collected (docs/decisions/0038-metrics-and-correlation.md).
// The request path is hot (apiKey.authenticate answers thousands a second), so each family and
// status class has its label-bound children made once and kept: a request costs one map lookup,
// one increment and one observation, no label objects and no Date.
import { Counter, Histogram, type Registry } from "prom-client";

/** Latency buckets, in seconds: most answers take milliseconds; exports may stream for minutes. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
/** More route families than the edge can name means a bug that would grow the series without end:
 * the rest are counted as "other". */
const MAX_FAMILIES = 256;

export type AuthenticateOutcome = "ok" | "unauthorized" | "forbidden";

interface BoundFamily {
  requests: Counter.Internal[];
  durations: Histogram.Internal<string>[];
}

interface Instruments {
  requests: Counter;
  durations: Histogram;
  families: Map<string, BoundFamily>;
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
  const requests = new Counter({
    name: "keyledger_http_requests_total",
    help: "HTTP requests answered, by route family and status class.",
    labelNames: ["route", "status"],
    registers: [registry],
  });
  const durations = new Histogram({
    name: "keyledger_http_request_duration_seconds",
    help: "Time from a request's arrival to its response's close, by route family and status class.",
    labelNames: ["route", "status"],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
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
    requests,
    durations,
    families: new Map(),
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

function boundFamily(active: Instruments, family: string): BoundFamily {
  let bound = active.families.get(family);
  if (!bound) {
    if (family !== "other" && active.families.size >= MAX_FAMILIES) return boundFamily(active, "other");
    bound = {
      requests: STATUS_CLASSES.map((status) => active.requests.labels(family, status)),
      durations: STATUS_CLASSES.map((status) => active.durations.labels(family, status)),
    };
    active.families.set(family, bound);
  }
  return bound;
}

/** One answered request. `family` comes from a fixed list (app/edge/route-family.server.ts), never the path. */
export function observeHttpRequest(family: string, status: number, seconds: number): void {
  const active = shared.__metricsInstruments;
  if (!active) return;
  const bound = boundFamily(active, family);
  const statusClass = Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1;
  bound.requests[statusClass]!.inc();
  bound.durations[statusClass]!.observe(seconds);
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

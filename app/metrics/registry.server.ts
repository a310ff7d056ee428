// The metrics registry: turned on once, by the request edge, when METRICS_TOKEN is set
// (docs/decisions/0038-metrics-and-correlation.md). Our figures are named keyledger_*; prom-client's
// process and Node.js figures keep their standard names (process_*, nodejs_*), which the common
// dashboards and alerts expect.
import { collectDefaultMetrics, Registry } from "prom-client";
import { registerAuditStreamMetrics } from "./audit-stream-metrics.server";
import { registerBuildInfo } from "./build-info.server";
import { createInstruments, renderRequestMetrics } from "./instruments.server";
import { registerJobGauges } from "./job-gauges.server";
import { registerPoolGauges } from "./pool-gauges.server";
import { registerReplicaMetrics } from "./replica-metrics.server";
import { env } from "~/env.server";

/** One registry per process, on globalThis like the instruments (./instruments.server.ts). */
const shared = globalThis as typeof globalThis & { __metricsRegistry?: Registry };

/** Creates the registry and starts counting; later calls keep the first (the dev server makes an
 * edge per rebuild). */
export function enableMetrics(options: { commit?: string }): void {
  if (shared.__metricsRegistry) return;
  const registry = (shared.__metricsRegistry = new Registry());
  collectDefaultMetrics({ register: registry });
  registerBuildInfo(registry, options.commit);
  registerPoolGauges(registry);
  registerJobGauges(registry);
  createInstruments(registry);
  registerAuditStreamMetrics(registry);
  if (env().DATABASE_READ_URL) registerReplicaMetrics(registry);
}

/** The exposition (Prometheus text format 0.0.4) and its Content-Type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  const registry = shared.__metricsRegistry;
  if (!registry) throw new Error("renderMetrics before enableMetrics");
  return { contentType: registry.contentType, body: `${await registry.metrics()}\n${renderRequestMetrics()}` };
}

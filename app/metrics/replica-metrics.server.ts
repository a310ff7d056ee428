// The replica's figures (DATABASE_READ_URL): where each routed read went and why, whether the
// replica is usable and how far behind it is. app/lib/read-routing.server.ts reports them; like the
// other instruments, nothing is kept until enableMetrics has run (METRICS_TOKEN set).
import { Counter, Gauge, type Registry } from "prom-client";

/** Where a routed read went: `replica`; or `primary` with why not the replica (`failed`: it failed
 * on the replica and the primary answered it). */
export type ReadRoute = "replica" | "read_your_writes" | "lagging" | "down" | "not_standby" | "failed";

interface ReplicaInstruments {
  reads: Counter;
  up: Gauge;
  lag: Gauge;
}

const shared = globalThis as typeof globalThis & { __replicaInstruments?: ReplicaInstruments };

/** Registered only when a replica is configured, so a deployment without one shows no such series. */
export function registerReplicaMetrics(registry: Registry): void {
  if (shared.__replicaInstruments) return;
  const reads = new Counter({
    name: "keyledger_replica_reads_total",
    help: "Audit reads and exports routed by DATABASE_READ_URL: server=replica, or server=primary with the reason (read_your_writes, lagging, down, not_standby, failed: tried on the replica first).",
    labelNames: ["server", "reason"],
    registers: [registry],
  });
  const up = new Gauge({
    name: "keyledger_replica_up",
    help: "1 when the replica answered its last check as a hot standby, else 0.",
    registers: [registry],
  });
  const lag = new Gauge({
    name: "keyledger_replica_lag_seconds",
    help: "How far the replica's replay was behind the primary at its last check (at least this many seconds).",
    registers: [registry],
  });
  reads.labels("replica", "replica").inc(0);
  shared.__replicaInstruments = { reads, up, lag };
}

export function countReplicaRead(route: ReadRoute): void {
  shared.__replicaInstruments?.reads.labels(route === "replica" ? "replica" : "primary", route).inc();
}

export function observeReplica(up: boolean, lagSeconds: number): void {
  const active = shared.__replicaInstruments;
  if (!active) return;
  active.up.set(up ? 1 : 0);
  active.lag.set(lagSeconds);
}

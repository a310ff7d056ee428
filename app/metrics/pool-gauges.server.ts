// The database pools and the export slots, read when Prometheus scrapes (collect callbacks: no
// timers, nothing done between scrapes). node-postgres counts connections itself, so these cost
// nothing and never touch the database.
import { Gauge, type Registry } from "prom-client";
import { poolStatistics, type PoolName, type PoolStatistics } from "~/db.server";
import { env } from "~/env.server";

const POOLS: PoolName[] = ["main", "export", "metrics"];
/** The replica's, when DATABASE_READ_URL is set. */
const REPLICA_POOLS: PoolName[] = ["replica", "replica-export"];

function poolGauge(registry: Registry, name: string, help: string, read: (stats: PoolStatistics) => number): void {
  new Gauge({
    name,
    help,
    labelNames: ["pool"],
    registers: [registry],
    collect() {
      const stats = poolStatistics();
      for (const pool of env().DATABASE_READ_URL ? [...POOLS, ...REPLICA_POOLS] : POOLS) this.set({ pool }, read(stats[pool]));
    },
  });
}

export function registerPoolGauges(registry: Registry): void {
  const pools =
    "main: pages and procedures; export: audit log downloads; metrics: this scrape's own connection; with DATABASE_READ_URL, replica and replica-export: the same reads on the replica";
  poolGauge(registry, "keyledger_db_pool_connections", `Open connections of each pool (${pools}).`, (s) => s.total);
  poolGauge(registry, "keyledger_db_pool_idle_connections", "Open connections of each pool not in use.", (s) => s.idle);
  poolGauge(registry, "keyledger_db_pool_waiting_requests", "Requests waiting for a connection of each pool.", (s) => s.waiting);
  poolGauge(registry, "keyledger_db_pool_max_connections", "The most connections each pool opens.", (s) => s.max);
  new Gauge({
    name: "keyledger_audit_export_slots_in_use",
    help: "Audit log exports streaming now (each holds one export connection).",
    registers: [registry],
    collect() {
      const { export: slots } = poolStatistics();
      this.set(slots.total - slots.idle);
    },
  });
  new Gauge({
    name: "keyledger_audit_export_slots",
    help: "Audit log exports this instance runs at once; more wait up to 30 s, then answer 429.",
    registers: [registry],
    collect() {
      this.set(poolStatistics().export.max);
    },
  });
}

// The keys page against the dashboard, for several builds side by side on one seed: the figure of
// decision 0064. bench/audit-view.ts measures one build per run, and on a shared machine two runs
// minutes apart differ more than two builds do; here every build's rounds interleave with the
// others', and each round measures dashboard, keys page, dashboard on the same server seconds apart.
// Prints per round the keys page's pages per second over the dashboard's around it, and the
// dashboard's server CPU per page over the keys page's (from /proc), the steadier of the two.
//
// Run: `npm run build && BENCH_APP_ROOTS=/path/to/earlier/checkout,. BENCH_AUDIT_DATA_DIR=/tmp/kl-audit
// npx tsx bench/keys-page-side-by-side.ts`. Each root needs its build/ and node_modules/.
// BENCH_ROUNDS (5) and BENCH_ROUND_SECONDS (2 per page) set the length; 10 clients, as audit-view.
import { resolve } from "node:path";
import autocannon from "autocannon";
import { freePort } from "../scripts/lib/free-port.ts";
import { openAuditViewDatabase } from "./lib/audit-view-seed.ts";
import { ensureBuild, processCpuMs, startProductionServer, stopChild, type ProductionServer } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const ROOTS = (process.env.BENCH_APP_ROOTS ?? ".").split(",").map((root) => resolve(root));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
const PAGES = { dashboard: "/dashboard", keys: "/dashboard/organization-settings/api-keys" };

ensureBuild();
const db = await openAuditViewDatabase();
const cookie = `session=${db.seeded.bigToken}`;
const servers: ProductionServer[] = [];
try {
  for (const root of ROOTS) {
    servers.push(await startProductionServer(root, { DATABASE_URL: db.url, DATABASE_POOL_SIZE: "10", PORT: String(await freePort()) }));
  }
  /** Pages per second and the server's CPU ms per page over one load of `path`. */
  const load = async (server: ProductionServer, path: string, duration = SECONDS) => {
    const cpuBefore = processCpuMs(server.child.pid!);
    const result = await autocannon({ url: server.url + path, connections: 10, duration, headers: { cookie, accept: "text/html" } });
    if (result.non2xx || result.errors) throw new Error(`${server.url}${path}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
    return { rps: result.requests.average, cpuMs: (processCpuMs(server.child.pid!) - cpuBefore) / result["2xx"] };
  };
  for (const server of servers) for (const path of Object.values(PAGES)) await load(server, path, 1);
  const rates = ROOTS.map(() => [] as number[]);
  const cpu = ROOTS.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order, so no build always runs first after the others' load.
    for (const i of round % 2 ? [...servers.keys()].reverse() : servers.keys()) {
      const before = await load(servers[i]!, PAGES.dashboard);
      const keys = await load(servers[i]!, PAGES.keys);
      const after = await load(servers[i]!, PAGES.dashboard);
      rates[i]!.push(keys.rps / ((before.rps + after.rps) / 2));
      cpu[i]!.push((before.cpuMs + after.cpuMs) / 2 / keys.cpuMs);
    }
  }
  const line = (values: number[]) => `${values.map((v) => v.toFixed(2)).join(" ")} (median ${median(values).toFixed(2)})`;
  for (const [i, root] of ROOTS.entries()) {
    console.log(`${root}\n  keys / dashboard pages per second: ${line(rates[i]!)}\n  dashboard / keys CPU per page:     ${line(cpu[i]!)}`);
  }
} finally {
  for (const server of servers) await stopChild(server.child);
  await db.close();
}

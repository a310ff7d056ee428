// apiKey.authenticate through one production start and through two on the same database, in one
// run (issue 31: "report authenticate throughput for one and for two, same run, honestly"). Run:
// `npm run build && npx tsx bench/instances.ts`.
//
// Both starts run side by side the whole time; each round measures one of them alone with 50
// connections, then both at once with 25 connections each (the load generator, this process, is
// the same in both). On this 2-core machine the two instances, PostgreSQL and the load generator
// share two cores, so the figure says how much a second instance adds here, not what it adds on
// a machine with cores to spare: the design (no state in the process; the row lock and last used
// in PostgreSQL) does not stop it scaling, the cores do.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { CONNECTIONS, run, seed, type Scenario } from "./lib/authenticate-load.ts";
import { ensureBuild, processCpuMs, startProductionServer, stopChild, type ProductionServer } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

export async function runInstancesBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-instances-"));
  const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
  const servers: ProductionServer[] = [];
  try {
    await migrate(database.url);
    const { secrets } = await seed(database.url);
    for (let i = 0; i < 2; i++) {
      const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "20", PORT: String(await freePort()) };
      servers.push(await startProductionServer(join(import.meta.dirname, ".."), env));
    }
    let next = 0;
    const scenario = (server: ProductionServer, connections: number): Scenario => ({
      label: server.url,
      url: `${server.url}/rpc/apiKey/authenticate`,
      authorization: () => `Bearer ${secrets[next++ % secrets.length]}`,
      connections,
    });
    for (const server of servers) await run(scenario(server, CONNECTIONS), 2);
    const one: number[] = [];
    const two: number[] = [];
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const alone = await run(scenario(servers[round % 2]!, CONNECTIONS), SECONDS);
      const both = await Promise.all(servers.map((server) => run(scenario(server, CONNECTIONS / 2), SECONDS)));
      failures += alone.non2xx + alone.errors + both.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
      one.push(alone.requests.average);
      two.push(both.reduce((sum, r) => sum + r.requests.average, 0));
    }
    const cpu = servers.map((server) => processCpuMs(server.child.pid!));
    const ratio = median(two.map((t, i) => t / one[i]!));
    const report = `apiKey.authenticate, one production start vs two on one database (${ROUNDS} rounds of ${SECONDS} s, 1,000 keys, ${CONNECTIONS} connections in all)

| | req/s (median) |
|---|---:|
| one instance | ${median(one).toFixed(0)} |
| two instances together | ${median(two).toFixed(0)} |
| two / one (median of the rounds' ratios) | ${ratio.toFixed(2)} |

Answers other than 2xx or errors: ${failures}. CPU used by each instance over the run: ${cpu.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(", ")}.
The machine has 2 cores for both instances, PostgreSQL and the load generator: it, not the design, is the ceiling.`;
    return { passed: failures === 0, report };
  } finally {
    for (const server of servers) await stopChild(server.child).catch(() => {});
    await database.stop();
    await rm(dataRoot, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runInstancesBench();
  console.log(`\n${report}\n`);
  process.exit(passed ? 0 : 1);
}

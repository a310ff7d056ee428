// KeyLedger's authenticate beside a peer: better-auth 1.7.5 with @better-auth/api-key 1.7.5 (issue 30:
// KeyLedger at least 5x better-auth's req/s). Run: `npx tsx bench/peer-better-auth.ts` (needs
// `npm run build`, run here when build/ is missing; installs bench/peers/better-auth on first use).
//
// One embedded PostgreSQL holds both: KeyLedger's database seeded with 1 000 keys, and the peer's
// own database (bench_peer) where better-auth migrated its schema and created 1 000 keys through its
// API. The KeyLedger production start (`node build/node/start.js`) and the peer (node:http calling
// auth.api.verifyApiKey) each run in a process of their own with a pool of 20 connections.
// autocannon (50 connections, the 1 000 keys cycling) measures them in interleaved rounds, the order
// reversed every other round (BENCH_PEER_ROUNDS of BENCH_ROUND_SECONDS, default 6 of 2.5 s, after a
// 2 s warm-up each). Printed for each: the median round's req/s, p50 and p99, the server's CPU time
// per answered request and PostgreSQL's (postmaster and its backends, from /proc): better-auth runs
// three statements per verify where KeyLedger runs one, so part of its cost is the database's.
// A run whose answers are not almost all 2xx fails: a benchmark of 401s measures nothing.
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Result } from "autocannon";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { run, seed, type Scenario } from "./lib/authenticate-load.ts";
import { ensurePeerInstalled, startBetterAuthPeer } from "./lib/peer-better-auth.ts";
import { ensureBuild, processCpuMs, startProductionServer, stopChild } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 6);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2.5);
const WARMUP_SECONDS = 2;
const TARGET = 5;
/** Below this share of 2xx answers a side's figures are not of verifying keys. */
const MIN_2XX_SHARE = 0.99;
const ROOT = join(import.meta.dirname, "..");

/** CPU time of the PostgreSQL server: its postmaster and every process it started (backends, walwriter…). */
function postgresCpuMs(postmasterPid: number): number {
  let total = processCpuMs(postmasterPid);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      if (ppid === postmasterPid) total += processCpuMs(Number(entry));
    } catch {
      // The process ended between the listing and the read: its time is gone with it.
    }
  }
  return total;
}

interface Side {
  label: string;
  scenario: Scenario;
  pid: number;
  rounds: Result[];
  cpuMs: number[];
  databaseCpuMs: number[];
}

/** One request before the load: a peer or server that refuses a good key must stop the run here. */
async function expectAccepted(side: Side): Promise<void> {
  const response = await fetch(side.scenario.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: side.scenario.authorization!() },
    body: JSON.stringify({ json: { scopes: [] } }),
  });
  if (response.status !== 200) throw new Error(`${side.label} answered a valid key with ${response.status}: ${await response.text()}`);
}

export async function runPeerBetterAuthBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  ensurePeerInstalled();
  const loadBefore = loadavg();
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-peer-pg-"));
  const dataDir = join(dataRoot, "data");
  const database = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: "bench" });
  const children: ChildProcess[] = [];
  try {
    await migrate(database.url);
    const postmasterPid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    const { secrets } = await seed(database.url);
    const peer = await startBetterAuthPeer(database.url);
    children.push(peer.child);
    const app = await startProductionServer(ROOT, { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "20", PORT: String(await freePort()) });
    children.push(app.child);

    const cycling = (keys: string[]) => {
      let next = 0;
      return () => `Bearer ${keys[next++ % keys.length]}`;
    };
    const sides: Side[] = [
      { label: "KeyLedger production server", url: `${app.url}/rpc/apiKey/authenticate`, keys: secrets, pid: app.child.pid! },
      { label: "better-auth 1.7.5 + @better-auth/api-key", url: peer.url, keys: peer.keys, pid: peer.child.pid! },
    ].map(({ label, url, keys, pid }) => ({
      label,
      scenario: { label, url, authorization: cycling(keys) },
      pid,
      rounds: [],
      cpuMs: [],
      databaseCpuMs: [],
    }));
    console.log(
      `Seeded ${secrets.length} KeyLedger keys and ${peer.keys.length} better-auth keys. ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s each, 50 connections.\n`,
    );
    for (const side of sides) await expectAccepted(side);
    for (const side of sides) await run(side.scenario, WARMUP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : sides.toReversed()) {
        const cpuBefore = processCpuMs(side.pid);
        const databaseBefore = postgresCpuMs(postmasterPid);
        side.rounds.push(await run(side.scenario, ROUND_SECONDS));
        side.cpuMs.push(processCpuMs(side.pid) - cpuBefore);
        side.databaseCpuMs.push(postgresCpuMs(postmasterPid) - databaseBefore);
      }
    }
    const loadAfter = loadavg();

    const rows = sides.map((side) => {
      const sum = (pick: (r: Result) => number) => side.rounds.reduce((total, r) => total + pick(r), 0);
      const answered = sum((r) => r["2xx"]);
      const all = answered + sum((r) => r.non2xx + r.errors + r.timeouts);
      const answers = `2xx ${answered}, 4xx ${sum((r) => r["4xx"])}, 5xx ${sum((r) => r["5xx"])}, errors ${sum((r) => r.errors + r.timeouts)}`;
      if (answered < MIN_2XX_SHARE * all) throw new Error(`${side.label}: only ${answered} of ${all} answers were 2xx (${answers})`);
      const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
      return {
        label: side.label,
        rps: median(side.rounds.map((r) => r.requests.average)),
        roundRps: side.rounds.map((r) => r.requests.average),
        p50: median(side.rounds.map((r) => r.latency.p50)),
        p99: median(side.rounds.map((r) => r.latency.p99)),
        cpuMicros: (total(side.cpuMs) * 1000) / answered,
        databaseCpuMicros: (total(side.databaseCpuMs) * 1000) / answered,
        answers,
      };
    });
    const [keyLedger, betterAuth] = rows as [(typeof rows)[number], (typeof rows)[number]];
    for (const r of rows)
      console.log(
        `  ${r.label.padEnd(42)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   CPU per request: server ${r.cpuMicros.toFixed(0)} µs, PostgreSQL ${r.databaseCpuMicros.toFixed(0)} µs   (${r.answers})`,
      );
    const ratio = keyLedger.rps / betterAuth.rps;
    const roundRatios = keyLedger.roundRps.map((rps, i) => rps / betterAuth.roundRps[i]!);
    const passed = ratio >= TARGET;
    const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
    const report = `| Server | req/s (median round) | p50 ms | p99 ms | server CPU per request | PostgreSQL CPU per request | answers |
|---|---:|---:|---:|---:|---:|---|
${rows.map((r) => `| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuMicros.toFixed(0)} µs | ${r.databaseCpuMicros.toFixed(0)} µs | ${r.answers} |`).join("\n")}

KeyLedger / better-auth: req/s ${ratio.toFixed(2)}x (target >= ${TARGET}x: ${passed ? "ok" : "missed"}; rounds: ${roundRatios.map((x) => x.toFixed(2)).join(", ")}), server CPU per request ${(betterAuth.cpuMicros / keyLedger.cpuMicros).toFixed(2)}x less, server + PostgreSQL ${((betterAuth.cpuMicros + betterAuth.databaseCpuMicros) / (keyLedger.cpuMicros + keyLedger.databaseCpuMicros)).toFixed(2)}x less. Measured ${new Date().toISOString()}, load average ${load(loadBefore)} before, ${load(loadAfter)} after.`;
    return { passed, report };
  } finally {
    for (const child of children) await stopChild(child).catch(() => {});
    await database.stop().catch(() => {});
    await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runPeerBetterAuthBench();
  console.log(`\n${report}\n\n${passed ? "Target met." : "Target missed."}`);
}

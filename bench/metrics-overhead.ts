// What the metrics cost apiKey.authenticate (issue 29: with metrics on, at least 0.95x the
// throughput with metrics off, same run). Run: `npx tsx bench/metrics-overhead.ts` (needs
// `npm run build`; it runs the build itself when build/ is missing).
//
// Four production servers on one embedded PostgreSQL seeded with 1 000 keys, started in the order
// on, off, off, on (two with METRICS_TOKEN set, each scraped once a second for the whole run as
// Prometheus would; two without, nothing collected): two identical servers measured side by side
// differ by a few percent by themselves (the first started was the slower in every run here), so
// each side gets one early and one late server. autocannon (50 connections, 1 000 distinct keys)
// measures them in interleaved rounds, the order reversed every other round (BENCH_METRICS_ROUNDS
// rounds of BENCH_ROUND_SECONDS, default 8 of 2.5 s, after a 2 s warm-up each), so load from
// elsewhere on the machine and going first fall on both sides alike. Printed for each side: the
// median round's req/s, and its CPU time per answered request (from /proc, summed over its rounds):
// on a machine shared with other work, throughput swings with what else runs, while the CPU a
// request costs is the server's own. The target judges the throughput ratio; the CPU ratio says how
// much of it is the metrics' work.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Result } from "autocannon";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { run, seed, type Scenario } from "./lib/authenticate-load.ts";
import { ensureBuild, startChild, stopChild } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 8);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2.5);
const WARMUP_SECONDS = 2;
const TARGET = 0.95;
const TOKEN = "bench-metrics-token-0123456789abcdef";
/** Linux counts process CPU time in clock ticks of 10 ms. */
const TICK_MS = 10;

/** CPU time (user + system) the process has used, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** Scrapes /metrics once a second until stopped; counts the answers by status. */
function scrapeEverySecond(url: string) {
  const statuses = new Map<number, number>();
  let bytes = 0;
  const timer = setInterval(() => {
    fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })
      .then(async (response) => {
        bytes = (await response.text()).length;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      })
      .catch(() => statuses.set(0, (statuses.get(0) ?? 0) + 1));
  }, 1000);
  return {
    stop: () => clearInterval(timer),
    summary: () => `${[...statuses].map(([status, n]) => `${n} × ${status}`).join(", ")}; last exposition ${bytes} bytes`,
  };
}

interface Server {
  side: "on" | "off";
  scenario: Scenario;
  pid: number;
  rounds: Result[];
  /** CPU time used during each of its rounds, in ms. */
  roundCpuMs: number[];
}

export async function runMetricsOverheadBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-metrics-pg-"));
  const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
  const children: ChildProcess[] = [];
  try {
    await migrate(database.url);
    const { secrets } = await seed(database.url);
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "20" };
    let next = 0;
    const authorization = () => `Bearer ${secrets[next++ % secrets.length]}`;
    const servers: Server[] = [];
    const scrapers: ReturnType<typeof scrapeEverySecond>[] = [];
    for (const side of ["on", "off", "off", "on"] as const) {
      const port = await freePort();
      const child = await startChild("app.ts", { ...env, PORT: String(port), METRICS_TOKEN: side === "on" ? TOKEN : "" });
      children.push(child);
      const url = `http://127.0.0.1:${port}/rpc/apiKey/authenticate`;
      servers.push({ side, scenario: { label: side, url, authorization }, pid: child.pid!, rounds: [], roundCpuMs: [] });
      if (side === "on") scrapers.push(scrapeEverySecond(`http://127.0.0.1:${port}/metrics`));
    }
    console.log(`Seeded ${secrets.length} keys. ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per server, 50 connections.\n`);
    for (const s of servers) await run(s.scenario, WARMUP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 === 0 ? servers : servers.toReversed()) {
        const before = cpuMs(s.pid);
        s.rounds.push(await run(s.scenario, ROUND_SECONDS));
        s.roundCpuMs.push(cpuMs(s.pid) - before);
      }
    }
    for (const scraper of scrapers) scraper.stop();

    const rows = (["on", "off"] as const).map((side) => {
      const mine = servers.filter((s) => s.side === side);
      const all = mine.flatMap((s) => s.rounds);
      const answered = all.reduce((total, r) => total + r["2xx"], 0);
      const other = all.reduce((total, r) => total + r.non2xx + r.errors, 0);
      // A round's figure for the side: the mean of its two servers' req/s in that round.
      const roundRps = mine[0]!.rounds.map(
        (_, round) => mine.reduce((total, s) => total + s.rounds[round]!.requests.average, 0) / mine.length,
      );
      return {
        label: side === "on" ? "metrics on (2 servers, each scraped every second)" : "metrics off (2 servers, METRICS_TOKEN unset)",
        rps: median(roundRps),
        roundRps,
        p50: median(all.map((r) => r.latency.p50)),
        p99: median(all.map((r) => r.latency.p99)),
        cpuMicros: (mine.reduce((total, s) => total + s.roundCpuMs.reduce((a, b) => a + b, 0), 0) * 1000) / answered,
        // A round's CPU per request for the side: both servers' CPU over both servers' answers.
        roundCpuMicros: mine[0]!.rounds.map(
          (_, round) =>
            (mine.reduce((total, s) => total + s.roundCpuMs[round]!, 0) * 1000) /
            mine.reduce((total, s) => total + s.rounds[round]!["2xx"], 0),
        ),
        answers: `2xx ${answered}, other ${other}`,
      };
    });
    const [metricsOn, metricsOff] = rows as [(typeof rows)[number], (typeof rows)[number]];
    for (const r of rows)
      console.log(
        `  ${r.label.padEnd(50)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50} ms   p99 ${r.p99} ms   ${r.cpuMicros.toFixed(0)} µs CPU per request   (${r.answers})`,
      );
    const ratio = metricsOn.rps / metricsOff.rps;
    const cpuRatio = metricsOff.cpuMicros / metricsOn.cpuMicros;
    const roundCpuRatio = median(metricsOn.roundCpuMicros.map((micros, i) => metricsOff.roundCpuMicros[i]! / micros));
    const passed = ratio >= TARGET;
    const scrapes = scrapers.map((scraper) => scraper.summary()).join("; ");
    const report = `| Servers | req/s (median round) | p50 ms | p99 ms | CPU per request | answers |
|---|---:|---:|---:|---:|---|
${rows.map((r) => `| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuMicros.toFixed(0)} µs | ${r.answers} |`).join("\n")}

Metrics on / off: req/s ${ratio.toFixed(3)} (target >= ${TARGET}: ${passed ? "ok" : "missed"}); requests per CPU second ${cpuRatio.toFixed(3)} (median of the rounds' own: ${roundCpuRatio.toFixed(3)}). Rounds' req/s ratios: ${metricsOn.roundRps.map((rps, i) => (rps / metricsOff.roundRps[i]!).toFixed(2)).join(", ")}. Scrapes: ${scrapes}.`;
    return { passed, report };
  } finally {
    for (const child of children) await stopChild(child).catch(() => {});
    await database.stop().catch(() => {});
    await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runMetricsOverheadBench();
  console.log(`\n${report}\n\n${passed ? "Target met." : "Target missed."}`);
}

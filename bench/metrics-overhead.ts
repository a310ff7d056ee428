// What the metrics cost apiKey.authenticate (issue 29: with metrics on, at least 0.95x the
// throughput with metrics off, same run). Run: `npx tsx bench/metrics-overhead.ts` (needs
// `npm run build`; it runs the build itself when build/ is missing).
//
// Two production servers on one embedded PostgreSQL seeded with 1 000 keys: one with
// METRICS_TOKEN set, scraped once a second for the whole run as Prometheus would, one without
// (nothing collected). autocannon (50 connections, 1 000 distinct keys) measures them in
// interleaved rounds (on off, off on, on off, …; BENCH_METRICS_ROUNDS rounds of
// BENCH_ROUND_SECONDS, default 6 of 4 s, after a 2 s warm-up each), so load from elsewhere on the
// machine and going first fall on both alike; the medians and their ratio are printed.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { measureInterleaved, seed } from "./api-key-auth.ts";
import { ensureBuild, startChild, stopChild } from "./lib/servers.ts";

const ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 6);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 4);
const TARGET = 0.95;
const TOKEN = "bench-metrics-token-0123456789abcdef";

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

export async function runMetricsOverheadBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-metrics-pg-"));
  const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
  const children: ChildProcess[] = [];
  try {
    await migrate(database.url);
    const { secrets } = await seed(database.url);
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "20" };
    const onPort = await freePort();
    const offPort = await freePort();
    children.push(await startChild("app.ts", { ...env, PORT: String(onPort), METRICS_TOKEN: TOKEN }));
    children.push(await startChild("app.ts", { ...env, PORT: String(offPort), METRICS_TOKEN: "" }));
    console.log(`Seeded ${secrets.length} keys. ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s per server, 50 connections.\n`);
    let next = 0;
    const manyKeys = () => `Bearer ${secrets[next++ % secrets.length]}`;
    const scraper = scrapeEverySecond(`http://127.0.0.1:${onPort}/metrics`);
    const [on, off] = await measureInterleaved(
      [
        { label: "metrics on (scraped every second)", url: `http://127.0.0.1:${onPort}/rpc/apiKey/authenticate`, authorization: manyKeys },
        { label: "metrics off (METRICS_TOKEN unset)", url: `http://127.0.0.1:${offPort}/rpc/apiKey/authenticate`, authorization: manyKeys },
      ],
      ROUNDS,
      ROUND_SECONDS,
      true,
    );
    scraper.stop();
    const ratio = on!.rps / off!.rps;
    const passed = ratio >= TARGET;
    const report = `| Server | req/s (median round) | p50 ms | p99 ms | answers |
|---|---:|---:|---:|---|
| ${on!.label} | ${on!.rps.toFixed(0)} | ${on!.p50} | ${on!.p99} | ${on!.statuses} |
| ${off!.label} | ${off!.rps.toFixed(0)} | ${off!.p50} | ${off!.p99} | ${off!.statuses} |

Metrics on / off req/s: ${ratio.toFixed(3)} (target >= ${TARGET}: ${passed ? "ok" : "missed"}). Scrapes: ${scraper.summary()}.`;
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

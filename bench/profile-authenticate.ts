// Where apiKey.authenticate's time goes: the production start (`node build/node/start.js`) under a
// V8 CPU profiler, loaded by autocannon with 1 000 distinct keys (50 connections), then a summary of
// the profile by origin and by function. Run: `npm run build && npx tsx bench/profile-authenticate.ts`
// (BENCH_PROFILE_SECONDS, default 10; BENCH_PROFILE_DIR keeps the .cpuprofile files, which
// Chrome's DevTools and speedscope open; `--previous`, `--bare`, `--baseline` profile another server). The summaries before and after the work of issue 30 are in
// docs/decisions/0040-authenticate-hot-path-profiled.md.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { run, seed } from "./lib/authenticate-load.ts";
import { formatSummary, summariseProfile } from "./lib/cpu-profile.ts";
import { preparePreviousRelease } from "./lib/previous-release.ts";
import { ensureBuild, processCpuMs, startChild, startProductionServer, stopChild } from "./lib/servers.ts";

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
const root = join(import.meta.dirname, "..");

ensureBuild();
const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-profile-"));
const profileDir = process.env.BENCH_PROFILE_DIR ?? join(dataRoot, "profiles");
const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
try {
  await migrate(database.url);
  const { secrets: routed, legacySecrets } = await seed(database.url);
  const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "20", PORT: String(await freePort()) };
  // `--bare` or `--baseline` profiles bench/servers/bare.ts or baseline.ts instead, `--previous` the
  // previous release (bench/previous-release.json): the "before" of a change that has landed.
  const other = ["bare", "baseline"].find((name) => process.argv.includes(`--${name}`));
  const previous = process.argv.includes("--previous") ? preparePreviousRelease() : null;
  const server = other
    ? { child: await startChild(`${other}.ts`, { ...env, BENCH_CPU_PROF: profileDir }), url: `http://127.0.0.1:${env.PORT}` }
    : await startProductionServer(previous?.root ?? root, env, {
        nodeArgs: ["--cpu-prof", "--cpu-prof-dir", profileDir],
      });
  // A release before issue 31 reads only the 52-character secrets it issued (decision 0048).
  const secrets = previous && !previous.readsRoutedSecrets ? legacySecrets : routed;
  let next = 0;
  const scenario = {
    label: "app",
    url: `${server.url}/rpc/apiKey/authenticate`,
    authorization: () => `Bearer ${secrets[next++ % secrets.length]}`,
  };
  await run(scenario, 2);
  const cpuBefore = processCpuMs(server.child.pid!);
  const micros = () => Number(process.hrtime.bigint() / 1000n);
  const window = { fromMicros: micros(), toMicros: 0 };
  const result = await run(scenario, SECONDS);
  window.toMicros = micros();
  const cpu = processCpuMs(server.child.pid!) - cpuBefore;
  await stopChild(server.child);
  const [file] = (await readdir(profileDir)).filter((f) => f.endsWith(".cpuprofile"));
  const requests = result["2xx"] + result.non2xx;
  console.log(
    `${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${result["2xx"]} answered 2xx, ${result.non2xx} other; ` +
      `process CPU ${((cpu * 1000) / requests).toFixed(0)} µs per request (profiler on)\n`,
  );
  // Only the samples of the measured load (not the start, not the warm-up).
  console.log(formatSummary(summariseProfile(join(profileDir, file!), window), requests));
  if (process.env.BENCH_PROFILE_DIR) console.log(`\nProfile: ${join(profileDir, file!)}`);
} finally {
  await database.stop().catch(() => {});
  await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
}

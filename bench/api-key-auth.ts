// Benchmark of POST /rpc/apiKey/authenticate, and its regression guard. Run: `npx tsx
// bench/api-key-auth.ts` (needs `npm run build`; it runs the build itself when build/ is missing).
//
// One embedded PostgreSQL, migrated and seeded with 1,000 keys in use. Side by side on it, each in a
// process of its own:
//   - bare: node:http + pg, one `UPDATE … RETURNING` and nothing else (bench/servers/bare.ts): the floor;
//   - baseline: node:http + pg running the app's own statement (bench/servers/baseline.ts);
//   - app: the production start, `node build/node/start.js` (worker, log lines, edge and all);
//   - previous: the previous release's production start (bench/previous-release.json, built once by
//     bench/lib/previous-release.ts), the regression guard's reference;
//   - better-auth: better-auth 1.7.5 + @better-auth/api-key verifying 1,000 keys of its own in a
//     database of its own on the same PostgreSQL (bench/peers/better-auth, installed on first use;
//     bench/peer-better-auth.ts measures it alone, with PostgreSQL's CPU too);
// autocannon (50 connections, loopback) loads each in BENCH_ROUNDS interleaved rounds (default 5, the
// order reversed every other round) of BENCH_DURATION / BENCH_ROUNDS seconds (default 15 s per
// scenario), after a 2 s warm-up each: 1,000 distinct keys cycling; all connections on one key; for
// the app also malformed keys against GET /ping. For each: the median round's req/s, p50 and p99,
// and the server's CPU time per answered request (from /proc). Ratios are medians of the rounds'
// own ratios, so a burst of load elsewhere on the machine falls on both sides of each.
//
// Targets (issue 30): app ≥ 0.8x bare req/s with 1,000 keys, ≥ 0.9x with one key, ≥ 5x better-auth;
// app CPU per request ≤ 1.3x bare's; app p99 ≤ 2x bare's; malformed keys ≥ 0.8x /ping. The regression guard:
// the app more than 5% below the previous release (req/s, or CPU per request) fails the run loudly.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Result } from "autocannon";
import { generateSecret } from "../app/api-keys/secret.server.ts";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { answerTimes, CONNECTIONS, run, seed, type Scenario } from "./lib/authenticate-load.ts";
import { startBetterAuthPeer } from "./lib/peer-better-auth.ts";
import { preparePreviousRelease } from "./lib/previous-release.ts";
import { ensureBuild, processCpuMs, startChild, startProductionServer, stopChild } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = 2;
const POOL_SIZE = "20";
/** The regression guard: more than this much slower than the previous release fails the run. */
const REGRESSION_TOLERANCE = 0.05;
const ROOT = join(import.meta.dirname, "..");

interface Server {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

interface Case extends Scenario {
  server: Server;
  /** Every answer is a 401 (malformed keys); otherwise every answer is 2xx. */
  expect401?: boolean;
  results: Result[];
  cpuMs: number[];
}

interface Measured {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU per answered request, µs. */
  cpuMicros: number;
  roundRps: number[];
  roundCpuMicros: number[];
  answers: string;
}

async function measureInterleaved(cases: Case[]): Promise<Measured[]> {
  for (const c of cases) await run(c, WARMUP);
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of round % 2 === 0 ? cases : cases.toReversed()) {
      const before = processCpuMs(c.server.pid);
      c.results.push(await run(c, DURATION / ROUNDS));
      c.cpuMs.push(processCpuMs(c.server.pid) - before);
    }
  }
  for (const c of cases) {
    // A ratio of unlike work measures nothing: every answer must be the one the case is about (401s
    // for the malformed keys, 2xx for the rest), in every round.
    const wrong = c.results.filter((r) => r.errors > 0 || r["2xx"] + r.non2xx === 0 || (c.expect401 ? r["2xx"] > 0 : r.non2xx > 0));
    if (wrong.length)
      throw new Error(
        `${c.label}: answers other than expected, or none, in ${wrong.length} round(s): the figures would compare unlike work`,
      );
  }
  return cases.map((c) => {
    const total = (pick: (r: Result) => number) => c.results.reduce((sum, r) => sum + pick(r), 0);
    const answered = total((r) => r["2xx"] + r.non2xx);
    const measured: Measured = {
      label: c.label,
      rps: median(c.results.map((r) => r.requests.average)),
      p50: median(c.results.map((r) => r.latency.p50)),
      p99: median(c.results.map((r) => r.latency.p99)),
      cpuMicros: (c.cpuMs.reduce((a, b) => a + b, 0) * 1000) / answered,
      roundRps: c.results.map((r) => r.requests.average),
      roundCpuMicros: c.results.map((r, i) => (c.cpuMs[i]! * 1000) / Math.max(1, r["2xx"] + r.non2xx)),
      answers: `2xx ${total((r) => r["2xx"])}, 4xx ${total((r) => r["4xx"])}, 5xx ${total((r) => r["5xx"])}, errors ${total((r) => r.errors)}`,
    };
    console.log(
      `  ${measured.label.padEnd(40)} ${measured.rps.toFixed(0).padStart(6)} req/s   p50 ${String(measured.p50).padStart(3)} ms   p99 ${String(measured.p99).padStart(3)} ms   ${measured.cpuMicros.toFixed(0).padStart(4)} µs CPU   (${measured.answers})`,
    );
    return measured;
  });
}

/** The median over the rounds of a / b, each round's own figures. */
const pairedRatio = (a: number[], b: number[]) => median(a.map((value, i) => value / b[i]!));
const fmt = (n: number) => n.toFixed(2);

interface Check {
  what: string;
  value: number;
  target: string;
  ok: boolean;
  /** Part of the regression guard (the previous release). */
  guard?: boolean;
}

export async function runApiKeyAuthBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const previous = preparePreviousRelease();
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-pg-"));
  const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
  const servers: Server[] = [];
  try {
    await migrate(database.url);
    const { secrets, expired, revoked } = await seed(database.url);
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: POOL_SIZE };
    const child = async (name: string, script: string): Promise<Server> => {
      const port = String(await freePort());
      const started = await startChild(script, { ...env, PORT: port });
      return { name, url: `http://127.0.0.1:${port}`, pid: started.pid!, stop: () => stopChild(started) };
    };
    const production = async (name: string, root: string): Promise<Server> => {
      const started = await startProductionServer(root, { ...env, PORT: String(await freePort()) });
      return { name, url: started.url, pid: started.child.pid!, stop: () => stopChild(started.child) };
    };
    const bare = await child("bare", "bare.ts");
    const baseline = await child("baseline", "baseline.ts");
    const app = await production("app", ROOT);
    const before = await production("previous", previous.root);
    servers.push(bare, baseline, app, before);
    const peer = await startBetterAuthPeer(database.url);
    const betterAuth: Server = { name: "better-auth", url: peer.url, pid: peer.child.pid!, stop: () => stopChild(peer.child) };
    servers.push(betterAuth);
    let nextPeerKey = 0;
    console.log(
      `Seeded ${secrets.length} keys. Previous release: ${previous.commit.slice(0, 10)} (${previous.what}).\n` +
        `${CONNECTIONS} connections, ${DURATION} s per scenario in ${ROUNDS} interleaved rounds (after ${WARMUP} s warm-up).\n`,
    );

    let next = 0;
    const manyKeys = () => `Bearer ${secrets[next++ % secrets.length]}`;
    const oneKey = () => `Bearer ${secrets[0]}`;
    // Well-shaped but with a broken checksum, so only the format check can reject it.
    const malformedSecret = secrets[0]!.slice(0, -1) + (secrets[0]!.endsWith("a") ? "b" : "a");
    const authenticateCase = (server: Server, keys: string, authorization: () => string): Case => ({
      label: `${server.name}, ${keys}`,
      url: `${server.url}/rpc/apiKey/authenticate`,
      authorization,
      server,
      results: [],
      cpuMs: [],
    });
    const measured = await measureInterleaved([
      authenticateCase(bare, "1,000 keys", manyKeys),
      authenticateCase(baseline, "1,000 keys", manyKeys),
      authenticateCase(app, "1,000 keys", manyKeys),
      authenticateCase(before, "1,000 keys", manyKeys),
      {
        ...authenticateCase(betterAuth, "1,000 keys", () => `Bearer ${peer.keys[nextPeerKey++ % peer.keys.length]}`),
        url: peer.url,
      },
      authenticateCase(bare, "one key", oneKey),
      authenticateCase(app, "one key", oneKey),
      authenticateCase(before, "one key", oneKey),
      { ...authenticateCase(app, "malformed keys (401)", () => `Bearer ${malformedSecret}`), expect401: true },
      { label: "app, GET /ping", url: `${app.url}/ping`, method: "GET", server: app, results: [], cpuMs: [] },
    ]);
    const [bareMany, baselineMany, appMany, previousMany, peerMany, bareOne, appOne, previousOne, appMalformed, appPing] = measured as [
      Measured,
      Measured,
      Measured,
      Measured,
      Measured,
      Measured,
      Measured,
      Measured,
      Measured,
      Measured,
    ];

    let e = 0;
    let r = 0;
    const timing = await answerTimes(
      `${app.url}/rpc/apiKey/authenticate`,
      {
        unknown: () => `Bearer ${generateSecret().secret}`,
        expired: () => `Bearer ${expired[e++ % expired.length]}`,
        revoked: () => `Bearer ${revoked[r++ % revoked.length]}`,
      },
      520,
    );
    const timingLine = Object.entries(timing.medians)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(3)} ms`)
      .join(", ");
    const timingSpread = Math.max(...Object.values(timing.medians)) / Math.min(...Object.values(timing.medians));
    console.log(`\n  401 answer time, median of 500 sequential requests each (statuses ${timing.statuses.join("/")}): ${timingLine}`);

    const rpsRatio = (a: Measured, b: Measured) => pairedRatio(a.roundRps, b.roundRps);
    const cpuRatio = (a: Measured, b: Measured) => a.cpuMicros / b.cpuMicros;
    const checks: Check[] = [
      {
        what: "app / bare req/s, 1,000 keys",
        value: rpsRatio(appMany, bareMany),
        target: ">= 0.8",
        ok: rpsRatio(appMany, bareMany) >= 0.8,
      },
      { what: "app / bare req/s, one key", value: rpsRatio(appOne, bareOne), target: ">= 0.9", ok: rpsRatio(appOne, bareOne) >= 0.9 },
      {
        what: "app / better-auth req/s, 1,000 keys",
        value: rpsRatio(appMany, peerMany),
        target: ">= 5",
        ok: rpsRatio(appMany, peerMany) >= 5,
      },
      { what: "app / bare CPU per request", value: cpuRatio(appMany, bareMany), target: "<= 1.3", ok: cpuRatio(appMany, bareMany) <= 1.3 },
      { what: "app / bare p99, 1,000 keys", value: appMany.p99 / bareMany.p99, target: "<= 2", ok: appMany.p99 / bareMany.p99 <= 2 },
      {
        what: "malformed keys / GET /ping req/s",
        value: rpsRatio(appMalformed, appPing),
        target: ">= 0.8",
        ok: rpsRatio(appMalformed, appPing) >= 0.8,
      },
      {
        what: "app / previous req/s, 1,000 keys",
        value: rpsRatio(appMany, previousMany),
        target: `>= ${1 - REGRESSION_TOLERANCE}`,
        ok: rpsRatio(appMany, previousMany) >= 1 - REGRESSION_TOLERANCE,
        guard: true,
      },
      {
        what: "app / previous req/s, one key",
        value: rpsRatio(appOne, previousOne),
        target: `>= ${1 - REGRESSION_TOLERANCE}`,
        ok: rpsRatio(appOne, previousOne) >= 1 - REGRESSION_TOLERANCE,
        guard: true,
      },
      {
        what: "app / previous CPU per request",
        value: cpuRatio(appMany, previousMany),
        target: `<= ${1 + REGRESSION_TOLERANCE}`,
        ok: cpuRatio(appMany, previousMany) <= 1 + REGRESSION_TOLERANCE,
        guard: true,
      },
    ];
    console.log("");
    for (const c of checks)
      console.log(`  ${c.what.padEnd(36)} ${fmt(c.value).padStart(6)}   target ${c.target.padEnd(8)} ${c.ok ? "ok" : "MISSED"}`);
    const regressed = checks.filter((c) => c.guard && !c.ok);
    if (regressed.length) {
      console.log(
        `\n${"!".repeat(78)}\n!! REGRESSION: apiKey.authenticate lost more than ${REGRESSION_TOLERANCE * 100}% against the previous release ${previous.commit.slice(0, 10)}:\n` +
          regressed.map((c) => `!!   ${c.what}: ${fmt(c.value)} (must be ${c.target})`).join("\n") +
          `\n!! Profile it: npx tsx bench/profile-authenticate.ts\n${"!".repeat(78)}`,
      );
    }

    const rows = [bareMany, baselineMany, appMany, previousMany, peerMany, bareOne, appOne, previousOne, appMalformed, appPing]
      .map((m) => `| ${m.label} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.cpuMicros.toFixed(0)} µs | ${m.answers} |`)
      .join("\n");
    const report = `| Scenario | req/s | p50 ms | p99 ms | server CPU per request | answers |
|---|---:|---:|---:|---:|---|
${rows}

| Ratio (median of the rounds' own) | Measured | Target | |
|---|---:|---|---|
${checks.map((c) => `| ${c.what} | ${fmt(c.value)} | ${c.target} | ${c.ok ? "ok" : c.guard ? "REGRESSION" : "missed"} |`).join("\n")}

Previous release: ${previous.commit} (${previous.what}). 401 answer time (median of 500 sequential requests each, one keep-alive connection): ${timingLine}; max/min ${fmt(timingSpread)}.`;
    return { passed: checks.every((c) => c.ok), report };
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    await database.stop().catch(() => {});
    await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runApiKeyAuthBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
  process.exit(passed ? 0 : 1); // not process.exitCode: embedded-postgres' exit hook resets it
}

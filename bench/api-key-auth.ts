// Benchmark of POST /rpc/apiKey/authenticate, and its regression guard. Run: `npx tsx
// bench/api-key-auth.ts` (needs `npm run build`; it runs the build itself when build/ is missing).
//
// One embedded PostgreSQL, migrated and seeded with 1,000 keys in use (and 1,000 more with secrets of
// the format before issue 31, for the previous release, which reads no other). Side by side on it,
// each in a process of its own:
//   - bare: node:http + pg, one `UPDATE … RETURNING` and nothing else (bench/servers/bare.ts): the floor;
//   - baseline: node:http + pg running the app's own statement (bench/servers/baseline.ts);
//   - app: the production start, `node build/node/start.js` (worker, log lines, edge and all);
//   - previous: the previous release's production start (bench/previous-release.json, built once by
//     bench/lib/previous-release.ts), the regression guard's reference, loaded with secrets of the
//     format it issued (when it is older than issue 31's routed secrets: decision 0048);
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
import { randomUUID } from "node:crypto";
import { generateSecret } from "../app/api-keys/secret.server.ts";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { answerTimes, CONNECTIONS, KEYS_PER_ORGANIZATION, seed } from "./lib/authenticate-load.ts";
import { startBetterAuthPeer } from "./lib/peer-better-auth.ts";
import { preparePreviousRelease } from "./lib/previous-release.ts";
import { ensureBuild, stopChild } from "./lib/servers.ts";
import { measureInterleaved, pairedRatio, serverStarters, type Measured, type Server } from "./lib/interleaved.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = 2;
const POOL_SIZE = "20";
/** The regression guard: more than this much slower than the previous release fails the run. */
const REGRESSION_TOLERANCE = 0.05;
const ROOT = join(import.meta.dirname, "..");

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
    const { secrets, legacySecrets, expired, revoked } = await seed(database.url);
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: POOL_SIZE };
    const { child, production } = serverStarters(env);
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
    // The same 1,000 keys, each call's organization another than the call before's (the seed puts
    // each organization's keys together): the app sends one statement per organization per turn of
    // its event loop (decision 0066), so this is its worst case, shown beside the usual order.
    const organizations = Math.ceil(secrets.length / KEYS_PER_ORGANIZATION);
    let nextSpread = 0;
    const spreadKeys = () => {
      const n = nextSpread++;
      return `Bearer ${secrets[((n % organizations) * KEYS_PER_ORGANIZATION + Math.floor(n / organizations)) % secrets.length]}`;
    };
    // The previous release reads the secrets it issued: before issue 31, 52 characters, no organization.
    let nextLegacy = 0;
    const previousKeys = previous.readsRoutedSecrets ? manyKeys : () => `Bearer ${legacySecrets[nextLegacy++ % legacySecrets.length]}`;
    const previousOneKey = previous.readsRoutedSecrets ? oneKey : () => `Bearer ${legacySecrets[0]}`;
    // Well-shaped but with a broken checksum, so only the format check can reject it.
    const malformedSecret = secrets[0]!.slice(0, -1) + (secrets[0]!.endsWith("a") ? "b" : "a");
    const authenticateCase = (server: Server, keys: string, authorization: () => string) => ({
      label: `${server.name}, ${keys}`,
      url: `${server.url}/rpc/apiKey/authenticate`,
      authorization,
      server,
      results: [],
      cpuMs: [],
    });
    const measured = await measureInterleaved(WARMUP, DURATION, ROUNDS, [
      authenticateCase(bare, "1,000 keys", manyKeys),
      authenticateCase(baseline, "1,000 keys", manyKeys),
      authenticateCase(app, "1,000 keys", manyKeys),
      authenticateCase(app, "1,000 keys, organizations interleaved", spreadKeys),
      authenticateCase(before, "1,000 keys", previousKeys),
      {
        ...authenticateCase(betterAuth, "1,000 keys", () => `Bearer ${peer.keys[nextPeerKey++ % peer.keys.length]}`),
        url: peer.url,
      },
      authenticateCase(bare, "one key", oneKey),
      authenticateCase(app, "one key", oneKey),
      authenticateCase(before, "one key", previousOneKey),
      { ...authenticateCase(app, "malformed keys (401)", () => `Bearer ${malformedSecret}`), expect401: true },
      { label: "app, GET /ping", url: `${app.url}/ping`, method: "GET", server: app, results: [], cpuMs: [] },
    ]);
    const [bareMany, baselineMany, appMany, appSpread, previousMany, peerMany, bareOne, appOne, previousOne, appMalformed, appPing] =
      measured as [Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured, Measured];

    let e = 0;
    let r = 0;
    const timing = await answerTimes(
      `${app.url}/rpc/apiKey/authenticate`,
      {
        unknown: () => `Bearer ${generateSecret(randomUUID()).secret}`,
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
        what: "app / bare req/s, organizations interleaved",
        value: rpsRatio(appSpread, bareMany),
        target: "none",
        ok: true,
      },
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

    const rows = [bareMany, baselineMany, appMany, appSpread, previousMany, peerMany, bareOne, appOne, previousOne, appMalformed, appPing]
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

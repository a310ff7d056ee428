// How apiKey.authenticate finds a key's organization, the two designs issue 31 names, measured in
// one run on one PostgreSQL (docs/decisions/0048-routed-secrets.md). Run: `npm run build && npx tsx
// bench/authenticate-routing.ts` (knobs BENCH_DURATION, seconds per case, 15; BENCH_ROUNDS, 5).
//
// Seeded as bench/api-key-auth.ts seeds (bench/lib/authenticate-load.ts): 1,000 keys whose secrets
// name their organization, and 1,000 with 52-character secrets and a lookup row each. Cases, each
// server in a process of its own, autocannon with 50 connections and the 1,000 keys cycling, in
// interleaved rounds:
//   (a) routing part in the secret: the organization read from the secret, one statement naming
//       (organization_id, secret_hash) (bench/servers/baseline.ts with today's secrets);
//   (b) a lookup table keyed by the secret's hash for every key: the lookup, then the same
//       statement, two round trips (baseline.ts with the 52-character secrets), which is what it
//       costs on Citus, where the lookup (a reference table) and the key (a shard) are separate
//       statements;
//   (c) the lookup as a subquery inside the one statement (bench/servers/subquery.ts): one round
//       trip here, but on Citus a statement whose distribution value comes from a subquery cannot
//       be routed to a shard at planning time and goes to every shard: shown for the record;
// and through the production start: the app with today's secrets (a), the app with 52-character
// secrets (b: the transition's path for old secrets), and the previous release
// (bench/previous-release.json) with the secrets it issued, by their hash alone: before the change.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { CONNECTIONS, seed } from "./lib/authenticate-load.ts";
import { measureInterleaved, pairedRatio, serverStarters, type Measured, type Server } from "./lib/interleaved.ts";
import { preparePreviousRelease } from "./lib/previous-release.ts";
import { ensureBuild } from "./lib/servers.ts";

const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = 2;
const POOL_SIZE = "20";
const ROOT = join(import.meta.dirname, "..");

export async function runAuthenticateRoutingBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const previous = preparePreviousRelease();
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-routing-"));
  const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
  const servers: Server[] = [];
  try {
    await migrate(database.url);
    const { secrets, legacySecrets } = await seed(database.url);
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: POOL_SIZE };
    const { child, production } = serverStarters(env);
    const baseline = await child("baseline", "baseline.ts");
    const subquery = await child("subquery", "subquery.ts");
    const app = await production("app", ROOT);
    const before = await production("previous", previous.root);
    servers.push(baseline, subquery, app, before);
    console.log(
      `Seeded ${secrets.length} keys with routed secrets and ${legacySecrets.length} with 52-character ones and lookup rows. ` +
        `Previous release: ${previous.commit.slice(0, 10)}.\n${CONNECTIONS} connections, ${DURATION} s per case in ${ROUNDS} interleaved rounds.\n`,
    );
    const cycling = (keys: string[]) => {
      let next = 0;
      return () => `Bearer ${keys[next++ % keys.length]}`;
    };
    const routed = cycling(secrets);
    const legacy = cycling(legacySecrets);
    const testCase = (server: Server, what: string, authorization: () => string) => ({
      label: `${server.name}, ${what}`,
      url: `${server.url}/rpc/apiKey/authenticate`,
      authorization,
      server,
      results: [],
      cpuMs: [],
    });
    const measured = await measureInterleaved(WARMUP, DURATION, ROUNDS, [
      testCase(baseline, "(a) routing part, one statement", routed),
      testCase(baseline, "(b) lookup, then the statement", legacy),
      testCase(subquery, "(c) lookup as a subquery", legacy),
      testCase(app, "(a) routed secrets", routed),
      testCase(app, "(b) 52-character secrets", legacy),
      testCase(before, "by hash alone (before)", previous.readsRoutedSecrets ? routed : legacy),
    ]);
    const [baseA, baseB, baseC, appA, appB, prev] = measured as [Measured, Measured, Measured, Measured, Measured, Measured];
    const rps = (a: Measured, b: Measured) => pairedRatio(a.roundRps, b.roundRps);
    const cpu = (a: Measured, b: Measured) => a.cpuMicros / b.cpuMicros;
    const ratios: [string, number, number][] = [
      ["baseline: (b) lookup table / (a) routing part", rps(baseB, baseA), cpu(baseB, baseA)],
      ["baseline: (c) subquery / (a) routing part", rps(baseC, baseA), cpu(baseC, baseA)],
      ["app: (b) 52-character secrets / (a) routed secrets", rps(appB, appA), cpu(appB, appA)],
      ["app (a) after / previous release before", rps(appA, prev), cpu(appA, prev)],
    ];
    const report = `| Case | req/s | p50 ms | p99 ms | server CPU per request | answers |
|---|---:|---:|---:|---:|---|
${measured.map((m) => `| ${m.label} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.cpuMicros.toFixed(0)} µs | ${m.answers} |`).join("\n")}

| Ratio (req/s: median of the rounds' own; CPU: whole run) | req/s | CPU per request |
|---|---:|---:|
${ratios.map(([what, r, c]) => `| ${what} | ${r.toFixed(2)} | ${c.toFixed(2)} |`).join("\n")}

Previous release: ${previous.commit} (${previous.what}).`;
    // A comparison, not a guard: the regression guard is bench/api-key-auth.ts.
    return { passed: true, report };
  } finally {
    for (const server of servers) await server.stop().catch(() => {});
    await database.stop().catch(() => {});
    await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { report } = await runAuthenticateRoutingBench();
  console.log(`\n${report}\n`);
  process.exit(0); // not process.exitCode: embedded-postgres' exit hook resets it
}

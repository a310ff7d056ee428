// Benchmark of POST /rpc/apiKey/authenticate (issue 3). Run: `npx tsx bench/api-key-auth.ts`
// (needs `npm run build` first; it runs the build itself when build/ is missing).
//
// Starts an embedded PostgreSQL in a temporary directory, migrates it, seeds 1 000 keys, then
// measures with autocannon (50 connections, loopback; 12 s per scenario in 3 interleaved rounds
// of 4 s, median round reported, after a 2 s warm-up):
//   (a) the real production server vs a plain node:http + pg baseline, over 1 000 distinct keys;
//   (b) the same with all 50 connections on one key (last-used updates on one row);
//   (c) malformed keys vs GET /ping, a constant resource route of the same app.
// Each server runs in a child process of its own. Everything stops by itself.
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { startEmbeddedPostgres } from "../scripts/lib/embedded-postgres.ts";
import { migrate } from "../scripts/lib/migrate.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { generateSecret } from "../app/api-keys/secret.server.ts";
import { ensureBuild, startChild, stopChild } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 12);
const WARMUP = 2;
/** Each scenario's DURATION is split into this many interleaved rounds. */
const ROUNDS = 3;
const KEY_COUNT = 1000;
const POOL_SIZE = "20";

export async function seed(databaseUrl: string): Promise<{ secrets: string[]; expired: string[]; revoked: string[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const userId = randomUUID();
    const organizationId = randomUUID();
    await client.query("INSERT INTO users (id, email, name, password_hash) VALUES ($1, 'bench@example.test', 'Bench', 'x')", [userId]);
    await client.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Bench', 'bench')", [organizationId]);
    const secrets = Array.from({ length: KEY_COUNT }, () => generateSecret());
    // One organization may hold only 25 unrevoked keys; the benchmark needs 1 000, so all but the
    // first 25 are seeded across 40 organizations.
    const orgIds = [organizationId, ...Array.from({ length: KEY_COUNT / 25 - 1 }, () => randomUUID())];
    for (const [i, id] of orgIds.entries()) {
      if (i > 0) await client.query("INSERT INTO organizations (id, name, slug) VALUES ($1, $2, $3)", [id, `Bench ${i}`, `bench-${i}`]);
    }
    await client.query(
      `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id)
       SELECT gen_random_uuid(), org, 'key-' || n, ARRAY['audit:view', 'member:read'], hash, prefix, $4
         FROM unnest($1::uuid[], $2::bytea[], $3::text[]) WITH ORDINALITY AS s(org, hash, prefix, n)`,
      [secrets.map((_, i) => orgIds[Math.floor(i / 25)]), secrets.map((s) => Buffer.from(s.hash)), secrets.map((s) => s.prefix), userId],
    );
    // For the timing comparison: keys that exist but are expired or revoked, in one more organization.
    const extraOrg = randomUUID();
    await client.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Bench extra', 'bench-extra')", [extraOrg]);
    const expired = Array.from({ length: 10 }, () => generateSecret());
    const revoked = Array.from({ length: 10 }, () => generateSecret());
    await client.query(
      `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, expires_at, revoked_at)
       SELECT gen_random_uuid(), $1, 'extra-' || n, ARRAY['audit:view'], hash, 'sk_x', CASE WHEN n <= 10 THEN now() - interval '1 day' END,
              CASE WHEN n > 10 THEN now() END
         FROM unnest($2::bytea[]) WITH ORDINALITY AS s(hash, n)`,
      [extraOrg, [...expired, ...revoked].map((s) => Buffer.from(s.hash))],
    );
    await client.query("ANALYZE api_keys");
    return { secrets: secrets.map((s) => s.secret), expired: expired.map((s) => s.secret), revoked: revoked.map((s) => s.secret) };
  } finally {
    await client.end();
  }
}

export interface Scenario {
  label: string;
  url: string;
  method?: "GET" | "POST";
  /** A fresh Authorization header per request. */
  authorization?: () => string;
}

interface Measured {
  label: string;
  rps: number;
  p99: number;
  p50: number;
  statuses: string;
}

export async function run(scenario: Scenario, duration: number): Promise<Result> {
  const method = scenario.method ?? "POST";
  const body = method === "POST" ? JSON.stringify({ json: { scopes: [] } }) : undefined;
  return autocannon({
    url: scenario.url,
    connections: CONNECTIONS,
    duration,
    method,
    headers: method === "POST" ? { "content-type": "application/json" } : {},
    body,
    requests: [
      {
        method,
        body,
        setupRequest: (request) =>
          scenario.authorization ? { ...request, headers: { ...request.headers, authorization: scenario.authorization() } } : request,
      },
    ],
  });
}

/**
 * Runs the scenarios in interleaved rounds (a b c, a b c, …) so that a burst of load from
 * elsewhere on the machine hits every scenario alike, and reports each one's median round.
 */
async function measureInterleaved(scenarios: Scenario[]): Promise<Measured[]> {
  const rounds: Result[][] = scenarios.map(() => []);
  for (const scenario of scenarios) await run(scenario, WARMUP);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, scenario] of scenarios.entries()) rounds[i]!.push(await run(scenario, DURATION / ROUNDS));
  }
  return scenarios.map((scenario, i) => {
    const results = rounds[i]!;
    const sum = (pick: (r: Result) => number) => results.reduce((total, r) => total + pick(r), 0);
    const statuses = `2xx ${sum((r) => r["2xx"])}, 4xx ${sum((r) => r["4xx"])}, 5xx ${sum((r) => r["5xx"])}, errors ${sum((r) => r.errors)}`;
    const measured = {
      label: scenario.label,
      rps: median(results.map((r) => r.requests.average)),
      p50: median(results.map((r) => r.latency.p50)),
      p99: median(results.map((r) => r.latency.p99)),
      statuses,
    };
    console.log(
      `  ${measured.label.padEnd(44)} ${measured.rps.toFixed(0).padStart(7)} req/s   p50 ${String(measured.p50).padStart(4)} ms   p99 ${String(measured.p99).padStart(4)} ms   (${statuses})`,
    );
    return measured;
  });
}

/**
 * Sequential requests on one keep-alive connection, interleaved by kind, so the answer times of
 * unknown, expired and revoked keys can be compared (they must not tell the three apart).
 */
async function answerTimes(url: string, kinds: Record<string, () => string>, perKind: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ json: { scopes: [] } });
  const once = (authorization: string) =>
    new Promise<{ status: number; micros: number }>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", authorization } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, micros: Number(process.hrtime.bigint() - started) / 1000 }));
      });
      req.on("error", reject);
      req.end(body);
    });
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const statuses = new Set<number>();
  for (let i = 0; i < perKind; i++) {
    for (const [kind, authorization] of Object.entries(kinds)) {
      const { status, micros } = await once(authorization());
      statuses.add(status);
      if (i >= 20) times[kind]!.push(micros); // the first rounds warm up
    }
  }
  agent.destroy();
  return { statuses: [...statuses], medians: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) };
}

const ratio = (a: number, b: number) => (b === 0 ? Infinity : a / b);
const fmt = (n: number) => n.toFixed(2);

export async function runApiKeyAuthBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const dataRoot = await mkdtemp(join(tmpdir(), "keyledger-bench-pg-"));
  const database = await startEmbeddedPostgres({ dataDir: join(dataRoot, "data"), port: await freePort(), database: "bench" });
  const children: ChildProcess[] = [];
  try {
    await migrate(database.url);
    const { secrets, expired, revoked } = await seed(database.url);
    console.log(
      `Seeded ${secrets.length} keys. ${CONNECTIONS} connections, ${DURATION} s per scenario in ${ROUNDS} interleaved rounds (after ${WARMUP} s warm-up).\n`,
    );
    const env = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: POOL_SIZE };

    let next = 0;
    const manyKeys = () => `Bearer ${secrets[next++ % secrets.length]}`;
    const oneKey = () => `Bearer ${secrets[0]}`;
    // Well-shaped but with a broken checksum, so only the format check can reject it.
    const malformedSecret = secrets[0]!.slice(0, -1) + (secrets[0]!.endsWith("a") ? "b" : "a");
    const malformed = () => `Bearer ${malformedSecret}`;

    const basePort = await freePort();
    const appPort = await freePort();
    children.push(await startChild("baseline.ts", { ...env, PORT: String(basePort) }));
    children.push(await startChild("app.ts", { ...env, PORT: String(appPort) }));
    const baseUrl = `http://127.0.0.1:${basePort}/rpc/apiKey/authenticate`;
    const appUrl = `http://127.0.0.1:${appPort}/rpc/apiKey/authenticate`;
    const [baselineMany, appMany, baselineOne, appOne, appMalformed, appPing] = (await measureInterleaved([
      { label: "baseline, 1 000 keys", url: baseUrl, authorization: manyKeys },
      { label: "app, 1 000 keys", url: appUrl, authorization: manyKeys },
      { label: "baseline, one key", url: baseUrl, authorization: oneKey },
      { label: "app, one key", url: appUrl, authorization: oneKey },
      { label: "app, malformed keys (401)", url: appUrl, authorization: malformed },
      { label: "app, GET /ping (constant resource route)", url: `http://127.0.0.1:${appPort}/ping`, method: "GET" },
    ])) as [Measured, Measured, Measured, Measured, Measured, Measured];

    let e = 0;
    let r = 0;
    const timing = await answerTimes(
      appUrl,
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
    console.log(`\n  401 answer time, median of 500 sequential requests each (statuses ${timing.statuses.join("/")}): ${timingLine}`);
    const timingValues = Object.values(timing.medians);
    const timingSpread = Math.max(...timingValues) / Math.min(...timingValues);

    const checks = [
      {
        what: "app / baseline req/s (1 000 keys)",
        value: ratio(appMany.rps, baselineMany.rps),
        target: ">= 0.35",
        ok: ratio(appMany.rps, baselineMany.rps) >= 0.35,
      },
      {
        what: "app / baseline p99 (1 000 keys)",
        value: ratio(appMany.p99, baselineMany.p99),
        target: "<= 3",
        ok: ratio(appMany.p99, baselineMany.p99) <= 3,
      },
      {
        what: "app one key / app 1 000 keys req/s",
        value: ratio(appOne.rps, appMany.rps),
        target: ">= 0.8",
        ok: ratio(appOne.rps, appMany.rps) >= 0.8,
      },
      {
        what: "malformed / GET /ping req/s",
        value: ratio(appMalformed.rps, appPing.rps),
        target: ">= 0.8",
        ok: ratio(appMalformed.rps, appPing.rps) >= 0.8,
      },
    ];
    console.log("");
    for (const c of checks)
      console.log(`  ${c.what.padEnd(40)} ${fmt(c.value).padStart(6)}   target ${c.target.padEnd(8)} ${c.ok ? "ok" : "MISSED"}`);

    const rows = [baselineMany, baselineOne, appMany, appOne, appMalformed, appPing]
      .map((m) => `| ${m.label} | ${m.rps.toFixed(0)} | ${m.p50} | ${m.p99} | ${m.statuses} |`)
      .join("\n");
    const report = `| Scenario | req/s | p50 ms | p99 ms | answers |
|---|---:|---:|---:|---|
${rows}

| Ratio | Measured | Target | |
|---|---:|---|---|
${checks.map((c) => `| ${c.what} | ${fmt(c.value)} | ${c.target} | ${c.ok ? "ok" : "missed"} |`).join("\n")}`;
    const timingReport = `\n\n401 answer time (median of 500 sequential requests each, one keep-alive connection): ${timingLine}; max/min ${fmt(timingSpread)}.`;
    return { passed: checks.every((c) => c.ok), report: report + timingReport };
  } finally {
    for (const child of children) await stopChild(child).catch(() => {});
    await database.stop().catch(() => {});
    await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runApiKeyAuthBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
}

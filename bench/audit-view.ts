// Benchmark of the audit log view at scale (issue "the audit log view, complete and fast at a
// million events per organization"). Run: `npx tsx bench/audit-view.ts` (runs `npm run build`
// itself when build/ is missing). `BENCH_AUDIT_EVENTS=100000` scales the seed down for a quick run.
//
// Starts an embedded PostgreSQL (with pg_stat_statements loaded) in a temporary directory,
// migrates it and seeds, with INSERT … SELECT generate_series:
//   - "Big": BENCH_AUDIT_EVENTS events (default 1,000,000), 20 members, 25 keys in use and 1,000
//     revoked keys, each key with its api_key.issued (and api_key.revoked) event;
//   - ten other organizations with as many events between them, interleaved in time with Big's;
//   - "Small": 1,000 events and 5 members.
// Then, database warm, through the real production server (a child process) over HTTP:
//   (a) latency, p50 and p95 of sequential requests on one keep-alive connection, the cases
//       interleaved: the audit page (first, 500,000 rows deep, each filter alone, drawer open),
//       auditLog.list, auditLog.detail and auditLog.actors for Big and for Small;
//   (b) SQL statements per request, counted by pg_stat_statements (BEGIN/COMMIT included);
//   (c) throughput with 10 concurrent clients (autocannon): audit page and keys page against the
//       dashboard home page, in interleaved rounds. Each ratio is the median over the rounds of the
//       page's rate divided by the dashboard's around it (the dashboard's runs that opened its round
//       and the next one): this machine's speed drifts by up to 2x within minutes, and a page is
//       compared with the dashboard measured seconds before and after it rather than with a median
//       taken from other minutes.
// The audit page shows 25 events unless `perPage` asks for 50 or 100; a page of 50 is measured too,
// for information (no target: the figures are for the page as it opens).
import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import http from "node:http";
import { pathToFileURL } from "node:url";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { signAuditCursor } from "../app/audit/cursor.server.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { insertOrganizations, openSeededDatabase, sessionToken, uuidV7 } from "./lib/seed.ts";
import { ensureBuild, startChild, stopChild } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const BIG_EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const OTHER_ORGS = 10;
const SMALL_EVENTS = 1_000;
const MEMBERS = 20;
const KEYS_IN_USE = 25;
const KEYS_REVOKED = 1_000;
/** Sequential requests per latency case (after WARMUP_REQUESTS each). */
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const WARMUP_REQUESTS = 20;
const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_DURATION ?? 21);
const ROUNDS = 7;
const POOL_SIZE = "10";
const DAY_MS = 86_400_000;
/** The seeded history spans a year, ending a minute before the seed runs. */
const SPAN_MS = 365 * DAY_MS;

interface Seeded {
  big: string;
  small: string;
  bigToken: string;
  smallToken: string;
  memberIds: string[];
  keyId: string;
  eventId: string;
  weekFrom: string;
  weekTo: string;
}

async function seed(client: pg.Client): Promise<Seeded> {
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  const big = randomUUID();
  const small = randomUUID();
  const others = Array.from({ length: OTHER_ORGS }, () => randomUUID());
  await insertOrganizations(client, big, small, others);

  // Members: 20 in Big (the first is the owner, and also owns Small), 5 in Small, 5 in each other.
  const memberIds = Array.from({ length: MEMBERS }, () => randomUUID());
  const smallIds = [memberIds[0]!, ...Array.from({ length: 4 }, () => randomUUID())];
  const otherIds = others.map(() => Array.from({ length: 5 }, () => randomUUID()));
  const userIds = [...new Set([...memberIds, ...smallIds, ...otherIds.flat()])];
  await q(
    `INSERT INTO users (id, email, name, password_hash)
     SELECT id, 'user' || n || '@bench.test', 'Bench user ' || n, 'x' FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n)`,
    [userIds],
  );
  const memberships: [string, string, string][] = [
    ...memberIds.map((id, i): [string, string, string] => [big, id, i === 0 ? "owner" : i < 4 ? "admin" : "member"]),
    ...smallIds.map((id, i): [string, string, string] => [small, id, i === 0 ? "owner" : "member"]),
    ...others.flatMap((org, o) => otherIds[o]!.map((id, i): [string, string, string] => [org, id, i === 0 ? "owner" : "member"])),
  ];
  await q(
    `INSERT INTO memberships (id, organization_id, user_id, role)
     SELECT gen_random_uuid(), org, usr, role::"Role" FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS m(org, usr, role)`,
    [memberships.map((m) => m[0]), memberships.map((m) => m[1]), memberships.map((m) => m[2])],
  );

  // Big's keys: 25 in use, 1,000 revoked, issued and revoked across the year by its members.
  const end = Date.now() - 60_000;
  const start = end - SPAN_MS;
  await q(
    `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id, created_at, revoked_at)
     SELECT gen_random_uuid(), $1, 'key ' || n, ARRAY['audit:view', 'member:read'],
            decode(md5(random()::text) || md5(random()::text), 'hex'), 'sk_' || substr(md5(n::text), 1, 8),
            ($2::uuid[])[1 + n % $3::int],
            to_timestamp(($4::double precision + (n - 1) * ($5::double precision / ($6::int + 1))) / 1000),
            CASE WHEN n > $7::int THEN to_timestamp(($4::double precision + (n - 1) * ($5::double precision / ($6::int + 1)) + 3600000) / 1000) END
       FROM generate_series(1, $6::int) AS n`,
    [big, memberIds, MEMBERS, start, SPAN_MS, KEYS_IN_USE + KEYS_REVOKED, KEYS_IN_USE],
  );
  // Each key's own events, as the app records them: issued, and revoked by a member.
  const keyEvents = await q(
    `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
     SELECT ${uuidV7("e.at")}, $1, e.at, e.action, 'user', e.actor, 'api_key', e.key::text, e.details, 'bench'
       FROM (
         SELECT k.id AS key, k.created_at AS at, 'api_key.issued' AS action, k.created_by_id::text AS actor,
                jsonb_build_object('name', k.name, 'scopes', k.scopes, 'expiresAt', null) AS details
           FROM api_keys k WHERE k.organization_id = $1
         UNION ALL
         SELECT k.id, k.revoked_at, 'api_key.revoked', ($2::uuid[])[1 + (hashtext(k.name) & 1023) % 4]::text, jsonb_build_object('name', k.name)
           FROM api_keys k WHERE k.organization_id = $1 AND k.revoked_at IS NOT NULL
       ) AS e`,
    [big, memberIds],
  );

  // The bulk of the history: Big's events every SPAN/N, the others' half a step later (interleaved).
  const keyIds = (await q("SELECT id FROM api_keys WHERE organization_id = $1 ORDER BY created_at", [big])).rows.map((r) => r.id as string);
  const bulk = BIG_EVENTS - (keyEvents.rowCount ?? 0);
  const step = SPAN_MS / BIG_EVENTS;
  const chunk = 200_000;
  // action by n % 10: 4 rotations, 2 role changes, 1 invitation, 1 settings change, 1 issue, 1 removal.
  // $1 start (ms), $2 step (ms), $3..$4 the range of n; the organization, actor and key expressions
  // bring their own parameters from $5 on.
  const generic = (org: string, actors: string, targetKeys: string) => `
    SELECT ${uuidV7("at")}, ${org}, at, action, 'user'::"ActorKind", ${actors},
           CASE WHEN action LIKE 'api_key.%' THEN 'api_key' WHEN action LIKE 'member.%' THEN 'user'
                WHEN action = 'invitation.sent' THEN 'invitation' ELSE 'organization' END,
           CASE WHEN action LIKE 'api_key.%' THEN ${targetKeys} WHEN action LIKE 'member.%' THEN ${actors}
                WHEN action = 'invitation.sent' THEN gen_random_uuid()::text ELSE (${org})::text END,
           CASE action
             WHEN 'api_key.rotated' THEN jsonb_build_object('name', 'key ' || n % 1000)
             WHEN 'api_key.issued' THEN jsonb_build_object('name', 'key ' || n % 1000, 'scopes', jsonb_build_array('audit:view'), 'expiresAt', null)
             WHEN 'member.role_changed' THEN '{"from": "member", "to": "admin"}'::jsonb
             WHEN 'member.removed' THEN '{"role": "member", "reason": "left"}'::jsonb
             WHEN 'invitation.sent' THEN '{"role": "member"}'::jsonb
             ELSE jsonb_build_object('name', jsonb_build_object('from', 'Org ' || n, 'to', 'Org ' || (n + 1)))
           END,
           'bench'
      FROM (SELECT n, to_timestamp(($1::double precision + n * $2::double precision) / 1000) AS at,
                   (ARRAY['api_key.rotated', 'api_key.rotated', 'api_key.rotated', 'api_key.rotated', 'member.role_changed',
                          'member.role_changed', 'invitation.sent', 'organization.settings_changed', 'api_key.issued',
                          'member.removed'])[1 + n % 10] AS action
              FROM generate_series($3::int, $4::int) AS n) AS e`;
  const insert = `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)`;
  for (let from = 1; from <= bulk; from += chunk) {
    const to = Math.min(bulk, from + chunk - 1);
    await q(`${insert} ${generic("$5::uuid", "($6::text[])[1 + (n * 7) % 20]", "($7::text[])[1 + n % 1025]")}`, [
      start,
      step,
      from,
      to,
      big,
      memberIds,
      keyIds,
    ]);
    // The other organizations' events, half a step later, round-robin across the ten.
    await q(
      `${insert} ${generic("($5::uuid[])[1 + n % 10]", "($6::text[])[1 + (n % 10) * 5 + (n / 10) % 5]", "gen_random_uuid()::text")}`,
      [start + step / 2, step, from, to, others, otherIds.flat()],
    );
    process.stdout.write(`\r  seeded ${(to * 2).toLocaleString("en")} of ${(bulk * 2).toLocaleString("en")} events`);
  }
  // Small: 1,000 events across the same year by its 5 members.
  await q(`${insert} ${generic("$5::uuid", "($6::text[])[1 + n % 5]", "gen_random_uuid()::text")}`, [
    start,
    SPAN_MS / SMALL_EVENTS,
    1,
    SMALL_EVENTS,
    small,
    smallIds,
  ]);
  console.log("");
  await q("VACUUM ANALYZE audit_events");
  await q("VACUUM ANALYZE api_keys");
  await q("VACUUM ANALYZE audit_event_days");

  const bigSession = sessionToken();
  const smallSession = sessionToken();
  await q(
    `INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, authenticated_at, two_factor_verified, active_organization_id)
     SELECT id, $3, now() + interval '14 days', now() + interval '30 days', now(), true, org
       FROM unnest($1::text[], $2::uuid[]) AS s(id, org)`,
    [[bigSession.id, smallSession.id], [big, small], memberIds[0]],
  );
  const eventId = (
    await q("SELECT id FROM audit_events WHERE organization_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET 10", [big])
  ).rows[0].id as string;
  const weekStart = new Date(start + SPAN_MS / 2);
  const isoDay = (d: Date) => d.toISOString().slice(0, 10);
  return {
    big,
    small,
    bigToken: bigSession.token,
    smallToken: smallSession.token,
    memberIds,
    keyId: keyIds[KEYS_IN_USE + 10]!,
    eventId,
    weekFrom: isoDay(weekStart),
    weekTo: isoDay(new Date(weekStart.getTime() + 6 * DAY_MS)),
  };
}

/** One request: a GET of a page, or an RPC POST with a JSON body. */
interface Request {
  label: string;
  path: string;
  cookie: string;
  rpc?: unknown;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function send(base: string, request: Request): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const body = request.rpc === undefined ? undefined : JSON.stringify({ json: request.rpc });
    const req = http.request(
      base + request.path,
      {
        method: body ? "POST" : "GET",
        agent,
        headers: {
          cookie: request.cookie,
          "accept-language": "en",
          ...(body ? { "content-type": "application/json", "sec-fetch-site": "same-origin" } : { accept: "text/html" }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - started) / 1e6,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

interface Latency {
  label: string;
  p50: number;
  p95: number;
  statements: number;
  /** The server's CPU time per request (user + system), read from /proc: steady under noise. */
  cpuMs: number;
  failures: number;
  kilobytes: number;
}

/** The cases round-robin (a b c, a b c, …), so a burst elsewhere on the machine hits them alike. */
async function measureLatency(
  base: string,
  requests: Request[],
): Promise<Map<string, { p50: number; p95: number; failures: number; kilobytes: number }>> {
  const times = requests.map(() => [] as number[]);
  const failures = requests.map(() => 0);
  const kilobytes = requests.map(() => 0);
  for (let i = 0; i < WARMUP_REQUESTS + SAMPLES; i++) {
    for (const [c, request] of requests.entries()) {
      const { status, ms, body } = await send(base, request);
      kilobytes[c] = Buffer.byteLength(body) / 1024;
      if (status !== 200) failures[c]!++;
      if (i >= WARMUP_REQUESTS) times[c]!.push(ms);
    }
  }
  return new Map(
    requests.map((r, c) => [
      r.label,
      { p50: percentile(times[c]!, 50), p95: percentile(times[c]!, 95), failures: failures[c]!, kilobytes: kilobytes[c]! },
    ]),
  );
}

/** Statements the server sent per request, from pg_stat_statements (this benchmark's own excluded). */
async function statementsPerRequest(
  base: string,
  stats: pg.Client,
  request: Request,
  serverPid: number,
  times = 40,
): Promise<{ statements: number; cpuMs: number }> {
  await stats.query("SELECT pg_stat_statements_reset()");
  const cpuBefore = await cpuTicks(serverPid);
  for (let i = 0; i < times; i++) await send(base, request);
  const cpuMs = (((await cpuTicks(serverPid)) - cpuBefore) * 10) / times;
  const { rows } = await stats.query<{ calls: string }>(
    `SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT ILIKE '%pg_stat_statements%'`,
  );
  if (process.env.BENCH_SHOW_STATEMENTS) {
    const detail = await stats.query<{ calls: string; query: string }>(
      `SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT ILIKE '%pg_stat_statements%'`,
    );
    console.log(`  ${request.label}:\n${detail.rows.map((r) => `    ${r.calls}× ${r.query}`).join("\n")}`);
  }
  return { statements: Number(rows[0]!.calls) / times, cpuMs };
}

/** CPU time a process has used (user + system), in clock ticks (1/100 s on Linux), from /proc. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

interface Throughput {
  label: string;
  rps: number;
  /** Requests per second in each round, in order. */
  roundRps: number[];
  p50: number;
  p99: number;
  statuses: string;
}

/**
 * The median over the rounds of a case's rate over the baseline's around it: the mean of the
 * baseline's run that opened the case's round and the one that opened the next round (or closed
 * the last), so a page measured late in a round is not compared with a machine seconds faster.
 */
const pairedRatio = (page: Throughput, baselineAround: number[]) => median(page.roundRps.map((rps, round) => rps / baselineAround[round]!));

/** 10 clients in interleaved rounds, the first case (the baseline) opening each round and
 * measured once more at the end; the median round per case. */
async function measureThroughput(base: string, cases: Request[]): Promise<{ throughput: Throughput[]; baselineAround: number[] }> {
  const run = (request: Request, duration: number) =>
    autocannon({ url: base + request.path, connections: CONNECTIONS, duration, headers: { cookie: request.cookie, accept: "text/html" } });
  const rounds: Result[][] = cases.map(() => []);
  for (const request of cases) await run(request, 2);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, request] of cases.entries()) rounds[i]!.push(await run(request, DURATION / ROUNDS));
  }
  const closing = (await run(cases[0]!, DURATION / ROUNDS)).requests.average;
  const baselineRps = [...rounds[0]!.map((r) => r.requests.average), closing];
  const throughput = cases.map((request, i) => {
    const results = rounds[i]!;
    const sum = (pick: (r: Result) => number) => results.reduce((total, r) => total + pick(r), 0);
    return {
      label: request.label,
      rps: median(results.map((r) => r.requests.average)),
      roundRps: results.map((r) => r.requests.average),
      p50: median(results.map((r) => r.latency.p50)),
      p99: median(results.map((r) => r.latency.p99)),
      statuses: `2xx ${sum((r) => r["2xx"])}, non-2xx ${sum((r) => r.non2xx)}, errors ${sum((r) => r.errors)}`,
    };
  });
  return { throughput, baselineAround: baselineRps.slice(0, ROUNDS).map((opening, round) => (opening + baselineRps[round + 1]!) / 2) };
}

const fmt = (n: number) => n.toFixed(2);

export async function runAuditViewBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const db = await openSeededDatabase({
    // BENCH_AUDIT_DATA_DIR keeps the seeded database between runs (for looking into a figure
    // without seeding again); by default it lives in a temporary directory removed at the end.
    keptDir: process.env.BENCH_AUDIT_DATA_DIR,
    tempPrefix: "keyledger-bench-audit-",
    seedName: String(BIG_EVENTS),
    settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track_utility": "on" },
    prepare: (client) => client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"),
    seed,
  });
  const { client, seeded: s, events: total } = db;
  let server: ChildProcess | undefined;
  try {
    const port = await freePort();
    server = await startChild("app.ts", { DATABASE_URL: db.url, DATABASE_POOL_SIZE: POOL_SIZE, PORT: String(port) });
    const base = `http://127.0.0.1:${port}`;
    const big = `session=${s.bigToken}`;
    const small = `session=${s.smallToken}`;
    const auditPath = "/dashboard/organization-settings/audit-log";

    // The first audit request makes the cursor signing key; a cursor 500,000 rows deep is then
    // minted with it exactly as the server mints its Next links.
    const first = await send(base, { label: "first", path: auditPath, cookie: big });
    if (first.status !== 200) throw new Error(`the audit page answered ${first.status}: ${first.body.slice(0, 500)}`);
    const secret = (await client.query("SELECT secret FROM server_secrets WHERE name = 'audit-cursor'")).rows[0].secret as Buffer;
    const depth = Math.min(500_000, Math.floor(BIG_EVENTS / 2));
    const deepRow = (
      await client.query(
        "SELECT created_at, id FROM audit_events WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1",
        [s.big, depth - 1],
      )
    ).rows[0] as { created_at: Date; id: string };
    const deepCursor = signAuditCursor(secret, s.big, {}, { createdAt: deepRow.created_at, id: deepRow.id, direction: "older" });
    const deepPage = await send(base, { label: "deep", path: `${auditPath}?cursor=${deepCursor}`, cookie: big });
    if (deepPage.status !== 200 || !deepPage.body.includes(`event-link-`)) throw new Error(`the deep page answered ${deepPage.status}`);

    const page = (label: string, query: string): Request => ({ label, path: `${auditPath}${query}`, cookie: big });
    const rpc = (label: string, procedure: string, input: unknown, cookie = big): Request => ({
      label,
      path: `/rpc/${procedure}`,
      cookie,
      rpc: input,
    });
    const cases: Request[] = [
      page("audit page, first", ""),
      page(`audit page, ${depth.toLocaleString("en")} rows deep`, `?cursor=${deepCursor}`),
      page("audit page, action filter", "?action=api_key.revoked"),
      page("audit page, actor filter", `?actorId=${s.memberIds[5]}`),
      page("audit page, one-week filter", `?from=${s.weekFrom}&to=${s.weekTo}`),
      page("audit page, target filter (one key)", `?targetId=${s.keyId}`),
      page("audit page, drawer open", `?event=${s.eventId}`),
      rpc("auditLog.list", "auditLog/list", { organizationId: s.big }),
      rpc("auditLog.detail", "auditLog/detail", { organizationId: s.big, eventId: s.eventId }),
      rpc(`auditLog.actors, ${BIG_EVENTS.toLocaleString("en")} events`, "auditLog/actors", { organizationId: s.big }),
      rpc(`auditLog.actors, ${SMALL_EVENTS.toLocaleString("en")} events`, "auditLog/actors", { organizationId: s.small }, small),
    ];
    for (const request of cases) {
      const answer = await send(base, request);
      if (answer.status !== 200) throw new Error(`${request.label} answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    }
    const dashboard: Request = { label: "dashboard home page", path: "/dashboard", cookie: big };
    const keysPage: Request = {
      label: `keys page (${KEYS_IN_USE} in use, ${KEYS_REVOKED.toLocaleString("en")} revoked)`,
      path: "/dashboard/organization-settings/api-keys",
      cookie: big,
    };
    const fiftyPerPage = page("audit page, 50 per page (information)", "?perPage=50");

    console.log(
      `\nLatency: ${SAMPLES} sequential requests per case on one keep-alive connection (after ${WARMUP_REQUESTS} warm-up), round-robin.`,
    );
    const measured = [...cases, dashboard, keysPage, fiftyPerPage];
    const latency = await measureLatency(base, measured);
    const stats = new pg.Client({ connectionString: db.url });
    await stats.connect();
    const latencies: Latency[] = [];
    for (const request of measured) {
      const timings = latency.get(request.label);
      const { statements, cpuMs } = await statementsPerRequest(base, stats, request, server.pid!);
      latencies.push({
        label: request.label,
        p50: timings?.p50 ?? NaN,
        p95: timings?.p95 ?? NaN,
        cpuMs,
        failures: timings?.failures ?? 0,
        kilobytes: timings?.kilobytes ?? 0,
        statements,
      });
    }
    await stats.end();
    for (const l of latencies) {
      console.log(
        `  ${l.label.padEnd(44)} p50 ${fmt(l.p50).padStart(7)} ms   p95 ${fmt(l.p95).padStart(7)} ms   ${String(l.statements).padStart(4)} statements   CPU ${fmt(l.cpuMs).padStart(6)} ms   ${l.kilobytes.toFixed(0).padStart(4)} KB${l.failures ? `   ${l.failures} not 200` : ""}`,
      );
    }

    console.log(`\nThroughput: ${CONNECTIONS} connections, ${DURATION} s per case in ${ROUNDS} interleaved rounds (after 2 s warm-up).`);
    const { throughput, baselineAround } = await measureThroughput(base, [dashboard, cases[0]!, cases[1]!, keysPage, fiftyPerPage]);
    const [, audit, deep, keys, fifty] = throughput;
    console.log(`  dashboard around each round (the baseline of the ratios): ${baselineAround.map((r) => r.toFixed(0)).join(" ")}`);
    const [auditRatio, deepRatio, keysRatio, fiftyRatio] = [audit!, deep!, keys!, fifty!].map((t) => pairedRatio(t, baselineAround));
    for (const t of throughput) {
      console.log(
        `  ${t.label.padEnd(44)} ${t.rps.toFixed(0).padStart(6)} req/s   p50 ${t.p50} ms   p99 ${t.p99} ms   (${t.statuses}; rounds ${t.roundRps.map((r) => r.toFixed(0)).join(" ")})`,
      );
    }

    const byLabel = (label: string) => latencies.find((l) => l.label === label)!;
    const firstPage = latencies[0]!;
    const deepLatency = latencies[1]!;
    const actorsBig = byLabel(cases[9]!.label);
    const actorsSmall = byLabel(cases[10]!.label);
    const pageLoads = latencies.slice(0, cases.length).filter((l) => l.label.startsWith("audit page"));
    const maxP95 = Math.max(...latencies.slice(0, cases.length).map((l) => l.p95));
    const slowest = latencies.slice(0, cases.length).find((l) => l.p95 === maxP95)!;
    const maxStatements = Math.max(...pageLoads.map((l) => l.statements));
    const actorsRatio = actorsBig.p50 / actorsSmall.p50;
    const checks = [
      { what: `slowest audit case p95 (${slowest.label})`, value: maxP95, target: "<= 25 ms", ok: maxP95 <= 25 },
      {
        what: "deep page / first page p50",
        value: deepLatency.p50 / firstPage.p50,
        target: "<= 1.2",
        ok: deepLatency.p50 / firstPage.p50 <= 1.2,
      },
      {
        what: "actors, big org / small org p50",
        value: actorsRatio,
        target: "0.5 .. 2",
        ok: actorsRatio <= 2 && actorsRatio >= 0.5,
      },
      { what: "audit page / dashboard req/s (10 clients)", value: auditRatio!, target: ">= 0.5", ok: auditRatio! >= 0.5 },
      { what: "deep audit page / dashboard req/s", value: deepRatio!, target: ">= 0.5", ok: deepRatio! >= 0.5 },
      { what: "keys page / dashboard req/s (10 clients)", value: keysRatio!, target: ">= 0.5", ok: keysRatio! >= 0.5 },
      { what: "most SQL statements per audit page load", value: maxStatements, target: "<= 6", ok: maxStatements <= 6 },
      {
        what: "requests that did not answer 200",
        value: latencies.reduce((n, l) => n + l.failures, 0),
        target: "0",
        ok: latencies.every((l) => l.failures === 0),
      },
    ];
    console.log("");
    for (const c of checks)
      console.log(`  ${c.what.padEnd(56)} ${fmt(c.value).padStart(7)}   target ${c.target.padEnd(9)} ${c.ok ? "ok" : "MISSED"}`);
    console.log(`  ${"50 per page / dashboard req/s (information)".padEnd(56)} ${fmt(fiftyRatio!).padStart(7)}`);

    const report = `Seeded: ${total.toLocaleString("en")} events (${BIG_EVENTS.toLocaleString("en")} in one organization, as many in ten others, ${SMALL_EVENTS.toLocaleString("en")} in a small one).

| Request (sequential, one connection) | p50 ms | p95 ms | SQL statements | server CPU ms | KB |
|---|---:|---:|---:|---:|---:|
${latencies.map((l) => `| ${l.label} | ${fmt(l.p50)} | ${fmt(l.p95)} | ${l.statements} | ${fmt(l.cpuMs)} | ${l.kilobytes.toFixed(0)} |`).join("\n")}

| Throughput, ${CONNECTIONS} clients | req/s | p50 ms | p99 ms | answers |
|---|---:|---:|---:|---|
${throughput.map((t) => `| ${t.label} | ${t.rps.toFixed(0)} | ${t.p50} | ${t.p99} | ${t.statuses} |`).join("\n")}

| Check | Measured | Target | |
|---|---:|---|---|
${checks.map((c) => `| ${c.what} | ${fmt(c.value)} | ${c.target} | ${c.ok ? "ok" : "missed"} |`).join("\n")}
| 50 per page / dashboard req/s (information) | ${fmt(fiftyRatio!)} | none | |`;
    return { passed: checks.every((c) => c.ok), report };
  } finally {
    agent.destroy();
    if (server) await stopChild(server).catch(() => {});
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runAuditViewBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
}

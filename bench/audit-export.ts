// Benchmark of the audit log export (issue "audit log export … at COPY speed"). Run:
// `npx tsx bench/audit-export.ts` (runs `npm run build` itself when build/ is missing).
// `BENCH_EXPORT_EVENTS=100000` scales the seed down for a quick run; `BENCH_EXPORT_DATA_DIR=<dir>`
// keeps the seeded database between runs.
//
// Starts an embedded PostgreSQL in a temporary directory, migrates it and seeds with INSERT …
// SELECT generate_series: "Big" with BENCH_EXPORT_EVENTS events (default 1,000,000) by 12
// members (one of them deleted since, one named like a spreadsheet formula) on 50 keys and on
// invitations that no longer exist; ten other organizations with as many events between them,
// interleaved in time ("Other 1" has a tenth); "Small" with 1,000. Then, database warm, through
// the real production server (a child process) over HTTP on loopback, in the same run:
//   (a) throughput: CSV and NDJSON of Big against psql's `\copy (SELECT the same columns with the
//       same name joins) to stdout csv` over the same rows, rounds interleaved, median reported;
//   (b) time to the first byte of the body, at BENCH_EXPORT_EVENTS rows;
//   (c) the server's peak resident memory during an export of Other 1 (a tenth of the rows) and
//       of Big, and while a client reads Big at 1 MB/s for SLOW_SECONDS (then disconnects: the
//       query must be gone from pg_stat_activity within a second);
//   (d) the rate limits under 50 concurrent requests (one user; ten users; two users).
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import { pathToFileURL } from "node:url";
import type pg from "pg";
import { namedRowsSql, inlineSql } from "../app/audit/export/sql.server.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { recountRollups } from "../app/audit/rollups.server.ts";
import { insertOrganizations, openSeededDatabase, sessionToken, uuidV7 } from "./lib/seed.ts";
import { ensureBuild, startChild, stopChild } from "./lib/servers.ts";
import { median } from "./lib/stats.ts";

const BIG_EVENTS = Number(process.env.BENCH_EXPORT_EVENTS ?? 1_000_000);
const OTHER_ORGS = 10;
const MEMBERS = 12;
const KEYS = 50;
const ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const SLOW_SECONDS = Number(process.env.BENCH_EXPORT_SLOW_SECONDS ?? 20);
const SLOW_BYTES_PER_SECOND = 1024 * 1024;
const CONCURRENT = 50;
const PSQL = process.env.PSQL ?? "/usr/bin/psql";
const DAY_MS = 86_400_000;
const SPAN_MS = 365 * DAY_MS;

interface Seeded {
  big: string;
  other: string;
  small: string;
  /** Session cookies: Big's owner (active in Big), Other 1's owner, Small's ten admins and owner. */
  bigCookie: string;
  otherCookie: string;
  smallCookies: string[];
}

async function seed(client: pg.Client): Promise<Seeded> {
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  const big = randomUUID();
  const small = randomUUID();
  const others = Array.from({ length: OTHER_ORGS }, () => randomUUID());
  await insertOrganizations(client, big, small, others);
  // Members: Big's 12 (the owner first; the last one deleted since; one named like a formula);
  // 5 per other organization; Small's owner and ten admins (the rate-limit cases).
  const bigIds = Array.from({ length: MEMBERS }, () => randomUUID());
  const otherIds = others.map(() => Array.from({ length: 5 }, () => randomUUID()));
  const smallIds = Array.from({ length: 11 }, () => randomUUID());
  const userIds = [...bigIds, ...otherIds.flat(), ...smallIds];
  await q(
    `INSERT INTO users (id, email, name, password_hash)
     SELECT id, 'user' || n || '@bench.test', CASE WHEN n = 3 THEN '=HYPERLINK("http://x", "Bench, user ' || n || '")' ELSE 'Bench user ' || n END, 'x'
       FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n)`,
    [userIds],
  );
  await q("UPDATE users SET deleted_at = now() WHERE id = $1", [bigIds.at(-1)]);
  const memberships: [string, string, string][] = [
    ...bigIds.slice(0, -1).map((id, i): [string, string, string] => [big, id, i === 0 ? "owner" : "admin"]),
    ...others.flatMap((org, o) => otherIds[o]!.map((id, i): [string, string, string] => [org, id, i === 0 ? "owner" : "member"])),
    ...smallIds.map((id, i): [string, string, string] => [small, id, i === 0 ? "owner" : "admin"]),
  ];
  await q(
    `INSERT INTO memberships (id, organization_id, user_id, role)
     SELECT gen_random_uuid(), org, usr, role::"Role" FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS m(org, usr, role)`,
    [memberships.map((m) => m[0]), memberships.map((m) => m[1]), memberships.map((m) => m[2])],
  );
  await q(
    `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id, revoked_at)
     SELECT gen_random_uuid(), $1, 'key ' || n, ARRAY['audit:view'], decode(md5(random()::text) || md5(random()::text), 'hex'),
            'sk_' || substr(md5(n::text), 1, 8), $2, CASE WHEN n > 25 THEN now() END
       FROM generate_series(1, $3::int) AS n`,
    [big, bigIds[0], KEYS],
  );
  const keyIds = (await q("SELECT id::text FROM api_keys WHERE organization_id = $1", [big])).rows.map((r) => r.id as string);

  const end = Date.now() - 60_000;
  const start = end - SPAN_MS;
  const insert = `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)`;
  // action by n % 5; $1 start (ms), $2 step (ms), $3..$4 the range of n, then the expressions' own parameters.
  const events = (org: string, actors: string, keys: string) => `
    SELECT ${uuidV7("at")}, ${org}, at, action, 'user'::"ActorKind", ${actors},
           CASE action WHEN 'api_key.rotated' THEN 'api_key' WHEN 'member.role_changed' THEN 'user'
                       WHEN 'invitation.sent' THEN 'invitation' ELSE 'organization' END,
           CASE action WHEN 'api_key.rotated' THEN ${keys} WHEN 'member.role_changed' THEN ${actors}
                       WHEN 'invitation.sent' THEN gen_random_uuid()::text ELSE (${org})::text END,
           CASE action WHEN 'api_key.rotated' THEN jsonb_build_object('name', 'key ' || n % 50)
                       WHEN 'member.role_changed' THEN '{"from": "member", "to": "admin"}'::jsonb
                       WHEN 'invitation.sent' THEN '{"role": "member"}'::jsonb
                       WHEN 'audit.exported' THEN '{"format": "csv", "filters": {}}'::jsonb
                       ELSE jsonb_build_object('name', jsonb_build_object('from', 'Org ' || n, 'to', 'Org ' || (n + 1))) END,
           'bench'
      FROM (SELECT n, to_timestamp(($1::double precision + n * $2::double precision) / 1000) AS at,
                   (ARRAY['api_key.rotated', 'member.role_changed', 'invitation.sent', 'organization.settings_changed',
                          'audit.exported'])[1 + n % 5] AS action
              FROM generate_series($3::int, $4::int) AS n) AS e`;
  const step = SPAN_MS / BIG_EVENTS;
  const chunk = 200_000;
  for (let from = 1; from <= BIG_EVENTS; from += chunk) {
    const to = Math.min(BIG_EVENTS, from + chunk - 1);
    await q(`${insert} ${events("$5::uuid", "($6::text[])[1 + (n * 7) % 12]", "($7::text[])[1 + n % 50]")}`, [
      start,
      step,
      from,
      to,
      big,
      bigIds,
      keyIds,
    ]);
    await q(`${insert} ${events("($5::uuid[])[1 + n % 10]", "($6::text[])[1 + (n % 10) * 5 + (n / 10) % 5]", "gen_random_uuid()::text")}`, [
      start + step / 2,
      step,
      from,
      to,
      others,
      otherIds.flat(),
    ]);
    process.stdout.write(`\r  seeded ${(to * 2).toLocaleString("en")} of ${(BIG_EVENTS * 2).toLocaleString("en")} events`);
  }
  await q(`${insert} ${events("$5::uuid", "($6::text[])[1 + n % 11]", "gen_random_uuid()::text")}`, [
    start,
    SPAN_MS / 1000,
    1,
    1000,
    small,
    smallIds,
  ]);
  console.log("");
  // The rollups of what was just inserted (the export's name directory reads audit_event_users).
  await recountRollups(client, [big, small, ...others]);
  await q("VACUUM ANALYZE");

  const sessions = [
    { userId: bigIds[0]!, org: big },
    { userId: otherIds[0]![0]!, org: others[0]! },
    ...smallIds.map((userId) => ({ userId, org: small })),
  ].map((s) => ({ ...s, ...sessionToken() }));
  await q(
    `INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, authenticated_at, two_factor_verified, active_organization_id)
     SELECT id, usr, now() + interval '14 days', now() + interval '30 days', now(), true, org
       FROM unnest($1::text[], $2::uuid[], $3::uuid[]) AS s(id, usr, org)`,
    [sessions.map((s) => s.id), sessions.map((s) => s.userId), sessions.map((s) => s.org)],
  );
  const cookie = (s: { token: string }) => `session=${s.token}`;
  return {
    big,
    other: others[0]!,
    small,
    bigCookie: cookie(sessions[0]!),
    otherCookie: cookie(sessions[1]!),
    smallCookies: sessions.slice(2).map(cookie),
  };
}

/** Resident memory of a process now, in bytes (Linux). */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.match(/\d+/)?.[0] ?? 0) * 1024;
}

/** Samples a process's resident memory every 20 ms until stopped; gives the peak. */
function watchMemory(pid: number) {
  let peak = residentBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, residentBytes(pid));
    },
  };
}

interface Download {
  status: number;
  bytes: number;
  lines: number;
  seconds: number;
  firstByteMs: number;
  headers: http.IncomingHttpHeaders;
  body?: string;
}

/** One export over HTTP, read as fast as possible (or at `bytesPerSecond`, for `maxSeconds`). */
function download(
  base: string,
  path: string,
  cookie: string,
  options: { keepBody?: boolean; bytesPerSecond?: number; maxSeconds?: number } = {},
): Promise<Download> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    const req = http.get(base + path, { headers: { cookie, "sec-fetch-site": "same-origin" }, agent: false }, (res) => {
      let bytes = 0;
      let lines = 0;
      let firstByteMs = NaN;
      const kept: Buffer[] = [];
      const finish = () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          lines,
          seconds: ms() / 1000,
          firstByteMs,
          headers: res.headers,
          ...(options.keepBody ? { body: Buffer.concat(kept).toString("utf8") } : {}),
        });
      res.on("data", (chunk: Buffer) => {
        if (Number.isNaN(firstByteMs)) firstByteMs = ms();
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        if (options.keepBody) kept.push(chunk);
        if (options.bytesPerSecond) {
          // Read no faster than the given rate: pause until the bytes so far are due.
          const due = (bytes / options.bytesPerSecond) * 1000 - ms();
          if (options.maxSeconds && ms() > options.maxSeconds * 1000) {
            req.destroy();
            finish();
            return;
          }
          if (due > 0) {
            res.pause();
            setTimeout(() => res.resume(), due);
          }
        }
      });
      res.on("end", finish);
      res.on("error", () => finish());
    });
    req.on("error", reject);
  });
}

/** psql's `\copy (…) to stdout csv` of the same rows and names, its output read by this process. */
function psqlCopy(databaseUrl: string, select: string): Promise<{ bytes: number; lines: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(PSQL, [databaseUrl, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c", `\\copy (${select}) to stdout csv`], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, PGOPTIONS: "-c enable_sort=off -c jit=off -c max_parallel_workers_per_gather=0" },
    });
    let bytes = 0;
    let lines = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0) reject(new Error(`psql exited with ${code}`));
      else resolve({ bytes, lines, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
const mb = (bytes: number) => bytes / 1024 / 1024;

async function activeCopies(client: pg.Client): Promise<number> {
  const { rows } = await client.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (%' AND state = 'active' AND pid <> pg_backend_pid()",
  );
  return rows[0].n as number;
}

export async function runAuditExportBench(): Promise<{ passed: boolean; report: string }> {
  ensureBuild();
  const db = await openSeededDatabase({
    keptDir: process.env.BENCH_EXPORT_DATA_DIR,
    tempPrefix: "keyledger-bench-export-",
    seedName: String(BIG_EVENTS),
    seed,
  });
  const { client, seeded: s, events: total } = db;
  let server: ChildProcess | undefined;
  try {
    const port = await freePort();
    server = await startChild("app.ts", { DATABASE_URL: db.url, DATABASE_POOL_SIZE: "10", PORT: String(port), LOG_LEVEL: "warn" });
    const base = `http://127.0.0.1:${port}`;
    const exportPath = (org: string, format: string) => `/api/organizations/${org}/audit-log/export?format=${format}`;
    /** The benchmark makes more exports than the limits allow a minute: each measured one starts from a clean slate. */
    const unlimited = async () => void (await client.query("DELETE FROM rate_limits"));
    const baselineSelect = inlineSql(
      namedRowsSql(
        s.big,
        { filters: {} },
        `r.id, r."createdAt", r.action, r."actorKind", r."actorId", r."actorName", r."targetType", r."targetId", r."targetName", r.details`,
      ),
      (value) => client.escapeLiteral(value),
    ).replace(/\s+/g, " ");

    // Warm-up: the rows, the indexes and the name lookups in the buffer cache; the server's code.
    await psqlCopy(db.url, baselineSelect);
    await unlimited();
    for (const format of ["csv", "json"]) {
      const warm = await download(base, exportPath(s.big, format), s.bigCookie);
      if (warm.status !== 200) throw new Error(`the export answered ${warm.status}`);
      await unlimited();
    }

    // (a) and (b): throughput and first byte, rounds interleaved.
    console.log(
      `\nThroughput: ${ROUNDS} interleaved rounds of psql \\copy, CSV and NDJSON over the same ${BIG_EVENTS.toLocaleString("en")} rows.`,
    );
    const runs = { psql: [] as number[], csv: [] as number[], json: [] as number[] };
    const firstByte = { csv: [] as number[], json: [] as number[] };
    const sizes = { psql: 0, csv: 0, json: 0 };
    const rowsSeen = { psql: 0, csv: 0, json: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const base_ = await psqlCopy(db.url, baselineSelect);
      runs.psql.push(base_.seconds);
      sizes.psql = base_.bytes;
      rowsSeen.psql = base_.lines;
      for (const format of ["csv", "json"] as const) {
        await unlimited();
        const d = await download(base, exportPath(s.big, format), s.bigCookie);
        if (d.status !== 200) throw new Error(`the ${format} export answered ${d.status}`);
        runs[format].push(d.seconds);
        firstByte[format].push(d.firstByteMs);
        sizes[format] = d.bytes;
        rowsSeen[format] = format === "csv" ? d.lines - 1 : d.lines;
      }
      console.log(
        `  round ${round + 1}: psql ${fmt(base_.seconds)} s, CSV ${fmt(runs.csv.at(-1)!)} s (first byte ${fmt(firstByte.csv.at(-1)!, 1)} ms), NDJSON ${fmt(runs.json.at(-1)!)} s (first byte ${fmt(firstByte.json.at(-1)!, 1)} ms)`,
      );
    }
    const rate = (rows: number, seconds: number) => rows / seconds;
    const psqlRate = rate(rowsSeen.psql, median(runs.psql));
    const csvRate = rate(rowsSeen.csv, median(runs.csv));
    const jsonRate = rate(rowsSeen.json, median(runs.json));

    // (c) memory: a tenth of the rows, all of them, and a slow reader.
    await unlimited();
    const tenthWatch = watchMemory(server.pid!);
    const tenth = await download(base, exportPath(s.other, "csv"), s.otherCookie);
    const tenthPeak = tenthWatch.stop();
    await unlimited();
    const fullWatch = watchMemory(server.pid!);
    const full = await download(base, exportPath(s.big, "csv"), s.bigCookie);
    const fullPeak = fullWatch.stop();
    await unlimited();
    const slowWatch = watchMemory(server.pid!);
    const slowSamples: number[] = [];
    const sampler = setInterval(() => slowSamples.push(residentBytes(server!.pid!)), 1000);
    const slow = await download(base, exportPath(s.big, "csv"), s.bigCookie, {
      bytesPerSecond: SLOW_BYTES_PER_SECOND,
      maxSeconds: SLOW_SECONDS,
    });
    clearInterval(sampler);
    const slowPeak = slowWatch.stop();
    const slowRate = slow.bytes / slow.seconds;
    // The client hung up mid-file: the query must end at once.
    let copiesLeft = await activeCopies(client);
    for (let i = 0; i < 10 && copiesLeft > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      copiesLeft = await activeCopies(client);
    }
    const halfway = slowSamples[Math.floor(slowSamples.length / 2)] ?? slowPeak;
    const lastSample = slowSamples.at(-1) ?? slowPeak;
    // Flat: after the first seconds (the stream set up, its buffers in use) the slow download's
    // memory does not grow however long it lasts.
    const settled = slowSamples[Math.min(2, slowSamples.length - 1)] ?? slowPeak;
    const slowGrowth = Math.max(...slowSamples.slice(2), settled) / settled;
    console.log(
      `\nMemory (server RSS peak): ${tenth.lines - 1} rows ${fmt(mb(tenthPeak), 1)} MB; ${full.lines - 1} rows ${fmt(mb(fullPeak), 1)} MB; ` +
        `slow client (${fmt(slowRate / 1024 / 1024)} MB/s for ${fmt(slow.seconds, 0)} s) ${fmt(mb(slowPeak), 1)} MB, ${fmt(mb(halfway), 1)} MB halfway, ${fmt(mb(lastSample), 1)} MB at the end; ` +
        `COPY queries still running 1 s after the slow client left: ${copiesLeft}`,
    );

    // (d) rate limits under 50 concurrent requests, on Small (1,000 events).
    const smallPath = exportPath(s.small, "json");
    const eventsBefore = async () =>
      (
        await client.query(
          "SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1 AND action = 'audit.exported' AND content_hash <> 'bench'",
          [s.small],
        )
      ).rows[0].n as number;
    const race = async (label: string, cookies: string[], expectOk: number) => {
      await unlimited();
      const before = await eventsBefore();
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) => download(base, smallPath, cookies[i % cookies.length]!)),
      );
      const ok = answers.filter((a) => a.status === 200).length;
      const limited = answers.filter((a) => a.status === 429);
      const headersOk = limited.every((a) => a.headers["retry-after"] && a.headers["ratelimit"] && a.headers["ratelimit-policy"]);
      const perUser = cookies.map((_, u) => answers.filter((a, i) => i % cookies.length === u && a.status === 200).length);
      const recorded = (await eventsBefore()) - before;
      console.log(
        `  ${label}: ${ok} × 200, ${limited.length} × 429 (expected ${expectOk} × 200), per user ${perUser.join("/")}, events recorded ${recorded}, 429 headers ${headersOk ? "complete" : "MISSING"}`,
      );
      return {
        label,
        ok,
        limited: limited.length,
        expectOk,
        recorded,
        headersOk,
        exact: ok === expectOk && limited.length === CONCURRENT - expectOk && recorded === ok && headersOk && perUser.every((n) => n <= 5),
      };
    };
    console.log(`\nRate limits, ${CONCURRENT} concurrent requests at once:`);
    const races = [
      await race("one user", [s.smallCookies[0]!], 5),
      await race("ten users", s.smallCookies.slice(1, 11), 10),
      await race("two users", s.smallCookies.slice(0, 2), 10),
    ];

    const ratioCsv = csvRate / psqlRate;
    const ratioJson = jsonRate / psqlRate;
    const firstByteMax = Math.max(...firstByte.csv, ...firstByte.json);
    const memoryRatio = fullPeak / tenthPeak;
    const slowRatio = slowPeak / tenthPeak;
    const checks = [
      { what: "CSV rows/s / psql \\copy rows/s", value: fmt(ratioCsv), target: ">= 0.5", ok: ratioCsv >= 0.5 },
      { what: "NDJSON rows/s / psql \\copy rows/s", value: fmt(ratioJson), target: ">= 0.5", ok: ratioJson >= 0.5 },
      { what: "CSV rows/s", value: fmt(csvRate, 0), target: ">= 150,000", ok: csvRate >= 150_000 },
      { what: "NDJSON rows/s", value: fmt(jsonRate, 0), target: ">= 150,000", ok: jsonRate >= 150_000 },
      { what: `first byte, slowest of ${ROUNDS * 2} (ms)`, value: fmt(firstByteMax, 1), target: "< 300", ok: firstByteMax < 300 },
      { what: "server RSS peak, all rows / a tenth", value: fmt(memoryRatio), target: "<= 1.10", ok: memoryRatio <= 1.1 },
      {
        what: `server RSS, slow client: peak after 2 s / at 2 s`,
        value: fmt(slowGrowth),
        target: "<= 1.05",
        ok: slowGrowth <= 1.05,
      },
      { what: "server RSS peak, slow client / a tenth", value: fmt(slowRatio), target: "<= 1.10", ok: slowRatio <= 1.1 },
      { what: "COPY still running 1 s after the client left", value: String(copiesLeft), target: "0", ok: copiesLeft === 0 },
      {
        what: "rate limits exact (3 races of 50)",
        value: races.map((r) => `${r.ok}/${r.expectOk}`).join(", "),
        target: "all exact",
        ok: races.every((r) => r.exact),
      },
      {
        // Each export records itself after its snapshot: the NDJSON export that follows the CSV one sees one row more.
        what: "rows: psql = CSV = NDJSON - 1",
        value: `${rowsSeen.psql}/${rowsSeen.csv}/${rowsSeen.json}`,
        target: "equal",
        ok: rowsSeen.psql === rowsSeen.csv && rowsSeen.csv === rowsSeen.json - 1,
      },
    ];
    console.log("");
    for (const c of checks)
      console.log(`  ${c.what.padEnd(48)} ${c.value.padStart(14)}   target ${c.target.padEnd(10)} ${c.ok ? "ok" : "MISSED"}`);

    const report = `Seeded: ${total.toLocaleString("en")} events (${BIG_EVENTS.toLocaleString("en")} in one organization, as many in ten others, 1,000 in a small one).

| Export of ${BIG_EVENTS.toLocaleString("en")} rows (median of ${ROUNDS}) | seconds | rows/s | MB | first byte ms (max) |
|---|---:|---:|---:|---:|
| psql \`\\copy … to stdout csv\` (baseline) | ${fmt(median(runs.psql))} | ${fmt(psqlRate, 0)} | ${fmt(mb(sizes.psql), 1)} | |
| CSV through the server | ${fmt(median(runs.csv))} | ${fmt(csvRate, 0)} | ${fmt(mb(sizes.csv), 1)} | ${fmt(Math.max(...firstByte.csv), 1)} |
| NDJSON through the server | ${fmt(median(runs.json))} | ${fmt(jsonRate, 0)} | ${fmt(mb(sizes.json), 1)} | ${fmt(Math.max(...firstByte.json), 1)} |

| Server RSS peak | MB |
|---|---:|
| export of ${(tenth.lines - 1).toLocaleString("en")} rows | ${fmt(mb(tenthPeak), 1)} |
| export of ${(full.lines - 1).toLocaleString("en")} rows | ${fmt(mb(fullPeak), 1)} |
| client reading at ${fmt(slowRate / 1024 / 1024)} MB/s for ${fmt(slow.seconds, 0)} s | ${fmt(mb(slowPeak), 1)} |

| Check | Measured | Target | |
|---|---:|---|---|
${checks.map((c) => `| ${c.what} | ${c.value} | ${c.target} | ${c.ok ? "ok" : "missed"} |`).join("\n")}`;
    return { passed: checks.every((c) => c.ok), report };
  } finally {
    if (server) await stopChild(server).catch(() => {});
    await db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { passed, report } = await runAuditExportBench();
  console.log(`\n${report}\n\n${passed ? "All targets met." : "Some targets missed."}`);
}

// Would monthly range partitions of audit_events pay for themselves? (issue 31, deliverable 4;
// docs/decisions/0046-audit-partitions.md). Run by hand: `npx tsx bench/audit-partitions.ts`.
// BENCH_PARTITION_EVENTS=1000000 scales the seed down; BENCH_PARTITION_DATA_DIR=<dir> keeps the
// seeded database for the next run (seeding 10,000,000 events into both tables takes minutes).
//
// One embedded PostgreSQL holds the audit log twice with the same rows (bench/lib/partition-seed.ts):
// `audit_events` as the migrations make it, and `audit_events_monthly`, partitioned by month. Each
// read is the app's own SQL (imported from app/audit/), sent as a named prepared statement over pg
// as the app sends it, to one table and then the other (the table name swapped), interleaved round
// by round; each figure is a median of the same run, and the verdict a ratio (twin / table).
// Then one EXPLAIN (ANALYZE, BUFFERS) of each for buffers, planning time and partitions touched;
// 10,000 single-row inserts into each (the event row alone, no rollups: the same for both); and maintenance:
// deleting an organization (the foreign key's cascade) and dropping a year of history (DELETE
// against DROP of partitions), each inside a transaction rolled back, so the seed stays as it was.
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { auditPageSql, filterConditions, nameJoins, NAMED_COLUMNS } from "../app/audit/query.server.ts";
import { EXPORT_SETTINGS, exportCopySql, exportSelectSql, inlineSql } from "../app/audit/export/sql.server.ts";
import type { AuditExportRequest, AuditQuery } from "../app/audit/audit-query.ts";
import { uuidOrNull } from "../app/db.server.ts";
import { Prisma } from "../app/generated/prisma/client.ts";
import { EVENTS, TWIN, openPartitionDatabase, type PartitionSeed } from "./lib/partition-seed.ts";
import { median } from "./lib/stats.ts";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PER_ROUND = 20;
const WARMUP = 10;
const INSERTS = Number(process.env.BENCH_PARTITION_INSERTS ?? 10_000);
const INSERT_BLOCK = 500;
const EXPORT_ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const PAGE_ROWS = 26; // the audit page's 25 and one more, as listAuditEvents asks
const DAY_MS = 86_400_000;

type Statement = { text: string; values: unknown[] };
const TABLES = ["audit_events", TWIN] as const;
/** The statement against the twin: the same text with the table's name swapped. */
const on = (table: string, sql: Statement): Statement =>
  table === "audit_events" ? sql : { text: sql.text.replace(/\baudit_events\b/g, table), values: sql.values };
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

interface Row {
  label: string;
  plain: number;
  twin: number;
  note: string;
}
const rows: Row[] = [];
function report(label: string, plain: number, twin: number, note = "") {
  rows.push({ label, plain, twin, note });
  console.log(`  ${label}: audit_events ${ms(plain)} ms, partitioned ${ms(twin)} ms (${(twin / plain).toFixed(2)}x) ${note}`);
}

/** The time a UUIDv7 carries (its first 48 bits: Unix milliseconds). */
const uuidTime = (id: string) => parseInt(id.replaceAll("-", "").slice(0, 12), 16);

async function timedReads(client: pg.Client, label: string, make: (i: number) => Statement) {
  const samples: Record<string, number[]> = { audit_events: [], [TWIN]: [] };
  const run = async (table: string, i: number, keep: boolean) => {
    const sql = on(table, make(i));
    const started = performance.now();
    await client.query({ name: `${label}:${table}`, text: sql.text, values: sql.values });
    if (keep) samples[table]!.push(performance.now() - started);
  };
  for (const table of TABLES) for (let i = 0; i < WARMUP; i++) await run(table, i, false);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? TABLES : [...TABLES].reverse();
    for (const table of order) for (let i = 0; i < PER_ROUND; i++) await run(table, round * PER_ROUND + i, true);
  }
  // Whether PostgreSQL kept a generic plan for the prepared statement or planned every call.
  const cached = await client.query(`SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name = ANY($1)`, [
    TABLES.map((table) => `${label}:${table}`),
  ]);
  const planKind = (table: string) => {
    const row = (cached.rows as { name: string; generic_plans: string; custom_plans: string }[]).find(
      (r) => r.name === `${label}:${table}`,
    );
    return row && Number(row.generic_plans) > Number(row.custom_plans) ? "generic" : "custom";
  };
  const plans = [];
  for (const table of TABLES) plans.push(await explain(client, on(table, make(0))));
  const [plainPlan, twinPlan] = plans as [Plan, Plan];
  report(
    label,
    median(samples.audit_events!),
    median(samples[TWIN]!),
    `p95 ${ms(percentile(samples.audit_events!, 0.95))} / ${ms(percentile(samples[TWIN]!, 0.95))} ms; ` +
      `buffers ${plainPlan.buffers} / ${twinPlan.buffers}; planning ${ms(plainPlan.planning)} / ${ms(twinPlan.planning)} ms; ` +
      `partitions read ${twinPlan.partitions}; plans ${planKind("audit_events")} / ${planKind(TWIN)}`,
  );
}

interface Plan {
  buffers: number;
  planning: number;
  partitions: number;
}
async function explain(client: pg.Client, sql: Statement): Promise<Plan> {
  const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql.text}`, sql.values);
  const [top] = result.rows[0]["QUERY PLAN"] as [{ Plan: Record<string, unknown>; "Planning Time": number }];
  const partitions = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    const relation = node["Relation Name"];
    if (typeof relation === "string" && relation.startsWith(`${TWIN}_`) && Number(node["Actual Loops"]) > 0) partitions.add(relation);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk(top.Plan);
  return {
    buffers: Number(top.Plan["Shared Hit Blocks"]) + Number(top.Plan["Shared Read Blocks"]),
    planning: top["Planning Time"],
    partitions: partitions.size,
  };
}

async function reads(client: pg.Client, seeded: PartitionSeed) {
  const { big } = seeded;
  const bigEvents = Math.round(EVENTS * 0.6);
  const depth = Math.min(5_000_000, Math.floor(bigEvents * 0.85));
  const deep = (
    await client.query(
      `SELECT created_at, id FROM audit_events WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [big, depth],
    )
  ).rows[0] as { created_at: Date; id: string };
  const noFilters: AuditQuery = { filters: {} };
  const weekFrom = new Date(Math.floor((seeded.start + (seeded.end - seeded.start) / 2) / DAY_MS) * DAY_MS);
  const ids = (
    await client.query(`SELECT id FROM audit_events TABLESAMPLE SYSTEM (1) WHERE organization_id = $1 LIMIT 200`, [big])
  ).rows.map((r: { id: string }) => r.id);
  const actorId = seeded.memberIds[3]!;
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;

  await timedReads(client, "first page", () => auditPageSql(big, noFilters, null, PAGE_ROWS));
  await timedReads(client, `page ${depth.toLocaleString("en")} rows deep`, () =>
    auditPageSql(big, noFilters, { createdAt: deep.created_at, id: deep.id, direction: "older" }, PAGE_ROWS),
  );
  await timedReads(client, "one-week filter", () =>
    auditPageSql(big, { filters: {}, createdFrom: weekFrom, createdBefore: new Date(weekFrom.getTime() + 7 * DAY_MS) }, null, PAGE_ROWS),
  );
  await timedReads(client, "action filter (member.removed)", () =>
    auditPageSql(big, { filters: { action: "member.removed" } }, null, PAGE_ROWS),
  );
  // The drawer as the app reads it (app/audit/query.server.ts, getAuditEvent), and the same with
  // the instant the UUIDv7 id carries (±1 day: the id is made in Node, created_at in PostgreSQL).
  const ID_UUIDS = `${uuidOrNull("actor_id")} AS actor_uuid, ${uuidOrNull("target_id")} AS target_uuid`;
  const drawer = (id: string, withTime: boolean): Statement => {
    const time = withTime
      ? Prisma.sql`AND created_at >= ${new Date(uuidTime(id) - DAY_MS)}::timestamptz AND created_at < ${new Date(uuidTime(id) + DAY_MS)}::timestamptz`
      : Prisma.empty;
    return Prisma.sql`
      SELECT ${NAMED_COLUMNS}, e.details, e.correlation_id AS "correlationId"
      FROM (SELECT *, ${Prisma.raw(ID_UUIDS)} FROM audit_events WHERE id = ${id}::uuid AND organization_id = ${big}::uuid ${time}) e
      ${nameJoins("e.actor_uuid", "e.target_uuid")}`;
  };
  await timedReads(client, "drawer, by id (as today)", (i) => drawer(ids[i % ids.length]!, false));
  await timedReads(client, "drawer, by id + time from its UUIDv7", (i) => drawer(ids[i % ids.length]!, true));
  // The chart with an actor filter counts events through the actor index (app/audit/activity.server.ts);
  // without one it reads the audit_event_days rollup, the same table for both.
  await timedReads(client, "chart, actor filter, 30 days", () => {
    const conditions = filterConditions(big, {
      filters: { actorId },
      createdFrom: new Date(today - 29 * DAY_MS),
      createdBefore: new Date(today + DAY_MS),
    });
    return Prisma.sql`
      SELECT to_char(day AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, events
      FROM (SELECT date_bin('1 day', created_at, timestamptz '2000-01-01 00:00:00+00') AS day, count(*)::int AS events
            FROM audit_events WHERE ${Prisma.join(conditions, " AND ")} GROUP BY 1) per_day`;
  });
}

/** The export of Big's whole log as the app runs it (its settings, snapshot and SQL): the first row
 * through a cursor, and all rows with COPY into /dev/null on the server (no network). */
async function exports(client: pg.Client, { big }: PartitionSeed) {
  const request = { format: "csv", query: { filters: {} } } as AuditExportRequest;
  const escape = (value: string) => client.escapeLiteral(value);
  const select = inlineSql(exportSelectSql(big, request, "directory"), escape);
  const copy = exportCopySql(big, request, "directory", escape).replace("TO STDOUT", "TO '/dev/null'");
  const first: Record<string, number[]> = { audit_events: [], [TWIN]: [] };
  const total: Record<string, number[]> = { audit_events: [], [TWIN]: [] };
  for (let round = 0; round < EXPORT_ROUNDS; round++) {
    const order = round % 2 === 0 ? TABLES : [...TABLES].reverse();
    for (const table of order) {
      const swap = (text: string) => on(table, { text, values: [] }).text;
      await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${EXPORT_SETTINGS}`);
      let started = performance.now();
      await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${swap(select)}`);
      await client.query("FETCH 1 FROM export_rows");
      first[table]!.push(performance.now() - started);
      await client.query("CLOSE export_rows");
      started = performance.now();
      await client.query(swap(copy));
      total[table]!.push(performance.now() - started);
      await client.query("COMMIT");
    }
  }
  const rounds = (values: Record<string, number[]>) =>
    `rounds ${values.audit_events!.map(ms).join(", ")} / ${values[TWIN]!.map(ms).join(", ")} ms`;
  report("export of Big, first row", median(first.audit_events!), median(first[TWIN]!), rounds(first));
  report("export of Big, all rows (COPY to /dev/null)", median(total.audit_events!), median(total[TWIN]!), rounds(total));
}

/** Single-row inserts of the event row, one per transaction (the rollups the recorder adds in the
 * same statement are the same tables for both, so left out), the tables
 * alternating every INSERT_BLOCK rows. synchronous_commit off: the WAL flush per commit costs the
 * same for both and would hide the difference in the insert itself. */
async function inserts(client: pg.Client, { big, memberIds }: PartitionSeed) {
  await client.query("SET synchronous_commit = off");
  const samples: Record<string, number[]> = { audit_events: [], [TWIN]: [] };
  for (let block = 0; block < (2 * INSERTS) / INSERT_BLOCK; block++) {
    const table = TABLES[block % 2]!;
    for (let i = 0; i < INSERT_BLOCK; i++) {
      const started = performance.now();
      await client.query({
        name: `insert:${table}`,
        text: `INSERT INTO ${table} (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details,
                                     idempotency_key, correlation_id, content_hash)
               VALUES ($1, $2, 'api_key.rotated', 'user', $3, 'api_key', $4, $5, NULL, $6, $7)`,
        values: [uuidv7(), big, memberIds[i % memberIds.length], uuidv7(), { name: `key ${i}` }, `bench-${block}-${i}`, "bench"],
      });
      samples[table]!.push(performance.now() - started);
    }
  }
  await client.query("SET synchronous_commit = on");
  report(
    `${INSERTS.toLocaleString("en")} single-row inserts, per insert`,
    median(samples.audit_events!),
    median(samples[TWIN]!),
    `total ${ms(samples.audit_events!.reduce((a, b) => a + b, 0))} / ${ms(samples[TWIN]!.reduce((a, b) => a + b, 0))} ms`,
  );
}

async function inRolledBackTransaction(client: pg.Client, work: () => Promise<unknown>): Promise<number> {
  await client.query("BEGIN");
  const started = performance.now();
  try {
    await work();
    return performance.now() - started;
  } finally {
    await client.query("ROLLBACK");
  }
}

/** Deleting an organization (Gone A's rows are in audit_events only, Gone B's in the twin only), and
 * a year of retention: DELETE of the events older than two years against DROP of their partitions. */
async function maintenance(client: pg.Client, seeded: PartitionSeed) {
  const deleteOrg = (id: string) => inRolledBackTransaction(client, () => client.query("DELETE FROM organizations WHERE id = $1", [id]));
  const a = [await deleteOrg(seeded.goneA), 0];
  const b = [await deleteOrg(seeded.goneB), await deleteOrg(seeded.goneB)];
  a[1] = await deleteOrg(seeded.goneA);
  report(`delete an organization (${Math.round(EVENTS * 0.04).toLocaleString("en")} events)`, median(a), median(b));

  const cutoff = new Date(Date.UTC(new Date(seeded.end).getUTCFullYear() - 2, new Date(seeded.end).getUTCMonth(), 1));
  const old = (
    await client.query(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = $1::regclass AND pg_get_expr(c.relpartbound, c.oid) ~ 'FROM'
          AND (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz <= $2
        ORDER BY 1`,
      [TWIN, cutoff],
    )
  ).rows.map((r: { relname: string }) => r.relname);
  const doomed = (await client.query(`SELECT count(*)::int AS n FROM audit_events WHERE created_at < $1`, [cutoff])).rows[0].n as number;
  // The app's role may not DELETE audit events; this client is the owner, as an operator's purge is.
  const deleted = await inRolledBackTransaction(client, async () => {
    await client.query("DELETE FROM audit_events WHERE created_at < $1", [cutoff]);
  });
  const dropped = await inRolledBackTransaction(client, async () => {
    for (const name of old) await client.query(`DROP TABLE ${name}`);
  });
  report(
    `purge before ${cutoff.toISOString().slice(0, 10)} (${doomed.toLocaleString("en")} events): DELETE / DROP of ${old.length} partitions`,
    deleted,
    dropped,
    "(the DELETE leaves dead rows for VACUUM; DROP leaves nothing)",
  );
}

async function main() {
  const database = await openPartitionDatabase();
  const { client, seeded } = database;
  try {
    const sizes = await client.query(
      `SELECT pg_size_pretty(pg_total_relation_size('audit_events')) AS plain,
              (SELECT pg_size_pretty(sum(pg_total_relation_size(inhrelid))) FROM pg_inherits WHERE inhparent = $1::regclass) AS twin,
              (SELECT count(*) FROM ${TWIN})::int AS twin_rows, version() AS version`,
      [TWIN],
    );
    const info = sizes.rows[0] as { plain: string; twin: string; twin_rows: number; version: string };
    console.log(`${info.version.split(",")[0]}; audit_events ${database.events.toLocaleString("en")} rows, ${info.plain};`);
    console.log(`${TWIN} ${info.twin_rows.toLocaleString("en")} rows in ${seeded.partitions} monthly partitions, ${info.twin}.`);
    await reads(client, seeded);
    await exports(client, seeded);
    await inserts(client, seeded);
    await maintenance(client, seeded);
    console.log(`\n| ${EVENTS.toLocaleString("en")} events | audit_events | partitioned by month | ratio |`);
    console.log("|---|---:|---:|---:|");
    for (const row of rows)
      console.log(`| ${row.label} | ${ms(row.plain)} ms | ${ms(row.twin)} ms | ${(row.twin / row.plain).toFixed(2)} |`);
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

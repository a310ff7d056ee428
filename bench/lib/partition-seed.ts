// The data of bench/audit-partitions.ts: one database holding the audit log twice, side by side, with
// the same rows: `audit_events` as the migrations make it, and `audit_events_monthly`, its twin
// range-partitioned by month on created_at (primary key (id, created_at), the real table's indexes
// on every partition, the same foreign key and triggers). BENCH_PARTITION_EVENTS events (default
// 10,000,000) in each, over three years ending now:
//   - "Big": 60% of them;
//   - ten other organizations: 36%, interleaved in time with Big's;
//   - "Gone A" (in audit_events only) and "Gone B" (in the twin only, in Gone A's places): 4% each, so
//     that deleting an organization can be timed on each table with the other holding none of its rows.
// Seeded with INSERT … SELECT generate_series; the secondary indexes are built after the rows
// (the result is the same table, sooner).
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { recountRollups } from "../../app/audit/rollups.server.ts";
import { insertOrganizations, openSeededDatabase, uuidV7, type SeededDatabase } from "./seed.ts";

export const EVENTS = Number(process.env.BENCH_PARTITION_EVENTS ?? 10_000_000);
export const TWIN = "audit_events_monthly";
const DAY_MS = 86_400_000;
/** Three years of history, ending a minute before the seed runs. */
export const SPAN_MS = 3 * 365 * DAY_MS;
const CHUNK = 500_000;
const MEMBERS = 20;
const OTHER_ORGS = 10;

export interface PartitionSeed {
  big: string;
  goneA: string;
  goneB: string;
  memberIds: string[];
  start: number;
  end: number;
  partitions: number;
}

export function openPartitionDatabase(): Promise<SeededDatabase<PartitionSeed>> {
  return openSeededDatabase({
    // BENCH_PARTITION_DATA_DIR keeps the seeded database between runs (seeding 10M twice takes minutes).
    keptDir: process.env.BENCH_PARTITION_DATA_DIR,
    tempPrefix: "keyledger-bench-partitions-",
    seedName: String(EVENTS),
    settings: { shared_buffers: "1GB", max_wal_size: "8GB", checkpoint_timeout: "30min" },
    seed,
  });
}

const COLUMNS =
  "id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, idempotency_key, correlation_id, content_hash";

/** n in 1..EVENTS, one slot of 25 per n: 15 Big, 1 Gone A, 9 the others round-robin. */
function eventsSql(table: string): string {
  return `
    INSERT INTO ${table} (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
    SELECT ${uuidV7("at")}, org, at, action, 'user'::"ActorKind", actor,
           CASE WHEN action LIKE 'api_key.%' THEN 'api_key' WHEN action LIKE 'member.%' THEN 'user'
                WHEN action = 'invitation.sent' THEN 'invitation' ELSE 'organization' END,
           CASE WHEN action LIKE 'member.%' THEN actor WHEN action LIKE 'organization.%' THEN org::text
                ELSE gen_random_uuid()::text END,
           CASE WHEN action LIKE 'api_key.%' THEN jsonb_build_object('name', 'key ' || n % 1000)
                WHEN action = 'member.role_changed' THEN '{"from": "member", "to": "admin"}'::jsonb
                WHEN action = 'member.removed' THEN '{"role": "member", "reason": "left"}'::jsonb
                WHEN action = 'invitation.sent' THEN '{"role": "member"}'::jsonb
                ELSE jsonb_build_object('name', jsonb_build_object('from', 'Org ' || n, 'to', 'Org ' || (n + 1))) END,
           'bench'
      FROM (SELECT n, to_timestamp(($1::double precision + n * $2::double precision) / 1000) AS at,
                   CASE WHEN n % 25 < 15 THEN $5::uuid WHEN n % 25 = 15 THEN $6::uuid ELSE ($7::uuid[])[1 + (n / 25) % 10] END AS org,
                   ($8::text[])[1 + (n * 7) % ${MEMBERS}] AS actor,
                   (ARRAY['api_key.rotated', 'api_key.rotated', 'api_key.rotated', 'api_key.rotated', 'member.role_changed',
                          'member.role_changed', 'invitation.sent', 'organization.settings_changed', 'api_key.issued',
                          'member.removed'])[1 + (n / 25) % 10] AS action
              FROM generate_series($3::int, $4::int) AS n) AS e`;
}

async function seed(client: pg.Client): Promise<PartitionSeed> {
  const q = (sql: string, params: unknown[] = []) => client.query(sql, params);
  await q("SET maintenance_work_mem = '1GB'");
  const big = randomUUID();
  const goneA = randomUUID();
  const goneB = randomUUID();
  const others = Array.from({ length: OTHER_ORGS }, () => randomUUID());
  await insertOrganizations(client, big, randomUUID(), [...others, goneA, goneB]);
  const memberIds = Array.from({ length: MEMBERS }, () => randomUUID());
  await q(
    `INSERT INTO users (id, email, name, password_hash)
     SELECT id, 'user' || n || '@bench.test', 'Bench user ' || n, 'x' FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n)`,
    [memberIds],
  );
  const end = Date.now() - 60_000;
  const start = end - SPAN_MS;
  const step = SPAN_MS / EVENTS;
  const fill = async (table: string, gone: string) => {
    for (let from = 1; from <= EVENTS; from += CHUNK) {
      const to = Math.min(EVENTS, from + CHUNK - 1);
      await q(eventsSql(table), [start, step, from, to, big, gone, others, memberIds]);
      process.stdout.write(`\r  ${table}: ${to.toLocaleString("en")} of ${EVENTS.toLocaleString("en")}`);
    }
    console.log("");
  };

  // The real table, its secondary indexes dropped while it fills and built again as they were.
  const indexes = (
    await q(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'audit_events' AND indexname <> 'audit_events_pkey'`)
  ).rows as { indexname: string; indexdef: string }[];
  for (const { indexname } of indexes) await q(`DROP INDEX "${indexname}"`);
  await fill("audit_events", goneA);
  for (const { indexdef } of indexes) await q(indexdef);
  // The rollups of what was just inserted, as the recorder would have kept them.
  await recountRollups(client, [big, goneA, ...others]);

  // The twin: monthly partitions from the first event's month to three months past now.
  await q(`CREATE TABLE ${TWIN} (LIKE audit_events INCLUDING DEFAULTS) PARTITION BY RANGE (created_at)`);
  const months = await q(
    `SELECT to_char(m, 'YYYY_MM') AS name, to_char(m, 'YYYY-MM-DD') AS from, to_char(m + interval '1 month', 'YYYY-MM-DD') AS to
       FROM generate_series(date_trunc('month', to_timestamp($1::double precision / 1000) AT TIME ZONE 'UTC'),
                            date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months', interval '1 month') AS m`,
    [start],
  );
  for (const m of months.rows as { name: string; from: string; to: string }[]) {
    await q(`CREATE TABLE ${TWIN}_${m.name} PARTITION OF ${TWIN} FOR VALUES FROM ('${m.from} 00:00+00') TO ('${m.to} 00:00+00')`);
  }
  // The same rows, in the same order, except that Gone A's become Gone B's: Gone B's events lie
  // among the others' exactly as Gone A's do in audit_events (an organization's deletion reads
  // pages it shares with everyone else's events, on either table).
  await q(
    `INSERT INTO ${TWIN} (${COLUMNS})
     SELECT ${COLUMNS.replace("organization_id", "CASE WHEN organization_id = $1 THEN $2::uuid ELSE organization_id END")}
       FROM audit_events`,
    [goneA, goneB],
  );
  // Gone B's rollup rows, as the recorder would have written them, so that deleting either Gone
  // organization cascades through the same tables.
  await q(
    `INSERT INTO audit_event_days (organization_id, day, action, events)
           SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, action, count(*) FROM ${TWIN} WHERE organization_id = $1 GROUP BY 1, 2, 3`,
    [goneB],
  );
  await q(
    `INSERT INTO audit_event_actors (organization_id, actor_id, actor_kind)
           SELECT DISTINCT ON (actor_id) organization_id, actor_id, actor_kind FROM ${TWIN} WHERE organization_id = $1`,
    [goneB],
  );
  await q(
    `INSERT INTO audit_event_users (organization_id, user_id)
           SELECT organization_id, actor_id FROM ${TWIN} WHERE organization_id = $1 AND actor_kind = 'user'
           UNION SELECT organization_id, target_id FROM ${TWIN} WHERE organization_id = $1 AND target_type = 'user'`,
    [goneB],
  );
  // The same indexes on every partition; a primary key and a unique index must include the
  // partition key, so the idempotency key is unique per (organization, key, instant) only.
  await q(`ALTER TABLE ${TWIN} ADD CONSTRAINT ${TWIN}_pkey PRIMARY KEY (id, created_at)`);
  for (const [i, { indexname, indexdef }] of indexes.entries()) {
    const twin = indexdef
      .replace(indexname, `${TWIN}_${i}_idx`)
      .replace(/ON public\.audit_events /, `ON ${TWIN} `)
      .replace("(organization_id, idempotency_key)", "(organization_id, idempotency_key, created_at)");
    await q(twin);
  }
  await q(`ALTER TABLE ${TWIN} ADD CONSTRAINT ${TWIN}_organization_id_fkey FOREIGN KEY (organization_id)
             REFERENCES organizations (id) ON DELETE CASCADE ON UPDATE CASCADE`);
  // No triggers on either table since decision 0049: append-only is the app role's privileges, and
  // the rollups are the recorder's statement (bench/audit-partitions.ts inserts plain rows into both).
  await q("VACUUM ANALYZE audit_events");
  await q(`VACUUM ANALYZE ${TWIN}`);
  return { big, goneA, goneB, memberIds, start, end, partitions: months.rowCount ?? 0 };
}

// The audit view benchmark's data (bench/audit-view.ts, bench/profile-pages.ts): "Big" with
// BENCH_AUDIT_EVENTS events (default 1,000,000), 20 members, 25 keys in use and 1,000 revoked; ten
// other organizations with as many events between them, interleaved in time with Big's; "Small"
// with 1,000 events and 5 members. Seeded with INSERT … SELECT generate_series.
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { signAuditCursor } from "../../app/audit/cursor.server.ts";
import { recountRollups } from "../../app/audit/rollups.server.ts";
import { insertOrganizations, openSeededDatabase, sessionToken, uuidV7, type SeededDatabase } from "./seed.ts";

export const BIG_EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const OTHER_ORGS = 10;
export const SMALL_EVENTS = 1_000;
const MEMBERS = 20;
export const KEYS_IN_USE = 25;
export const KEYS_REVOKED = 1_000;
const DAY_MS = 86_400_000;
/** The seeded history spans a year, ending a minute before the seed runs. */
const SPAN_MS = 365 * DAY_MS;

/** The seeded database, with pg_stat_statements loaded (the benchmark counts statements). */
export function openAuditViewDatabase(): Promise<SeededDatabase<Seeded>> {
  return openSeededDatabase({
    // BENCH_AUDIT_DATA_DIR keeps the seeded database between runs (for looking into a figure
    // without seeding again); by default it lives in a temporary directory removed at the end.
    keptDir: process.env.BENCH_AUDIT_DATA_DIR,
    tempPrefix: "keyledger-bench-audit-",
    seedName: String(BIG_EVENTS),
    settings: { shared_preload_libraries: "pg_stat_statements", "pg_stat_statements.track_utility": "on" },
    prepare: (client) => client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"),
    seed,
  });
}

export interface Seeded {
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

export async function seed(client: pg.Client): Promise<Seeded> {
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
  // The rollups of what was just inserted, as the recorder would have kept them.
  await recountRollups(client, [big, small, ...others]);
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

/** How deep the benchmarks' deep page is: 500,000 rows, or half the log when it is smaller. */
export const DEEP_PAGE_ROWS = Math.min(500_000, Math.floor(BIG_EVENTS / 2));

/**
 * A cursor DEEP_PAGE_ROWS rows into `organizationId`'s log, minted exactly as the server mints its
 * Next links. The cursor signing key exists once a server has answered an audit page.
 */
export async function deepAuditCursor(client: pg.Client, organizationId: string): Promise<string> {
  const secret = (await client.query("SELECT secret FROM server_secrets WHERE name = 'audit-cursor'")).rows[0].secret as Buffer;
  const row = (
    await client.query(
      "SELECT created_at, id FROM audit_events WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1",
      [organizationId, DEEP_PAGE_ROWS - 1],
    )
  ).rows[0] as { created_at: Date; id: string };
  return signAuditCursor(secret, organizationId, {}, { createdAt: row.created_at, id: row.id, direction: "older" });
}

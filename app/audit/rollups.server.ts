// The audit log's rollups, written with the events (docs/decisions/0049-append-only-by-privileges.md):
// audit_event_days (events per organization, UTC day and action: the activity chart),
// audit_event_actors (every actor the log names: the actor filter) and audit_event_users (every user
// it names as actor or target: the export's name directory). Statement-level triggers kept them
// until Citus, which refuses triggers on distributed tables, made the recorder their writer.
//
// Two ways in, one set of rules:
// - insertEventWithRollups: the recorder's one statement, the event and its three rollups together
//   (data-modifying CTEs), so an audited write still costs one round trip and the rollups commit or
//   roll back with the event. An idempotent replay inserts nothing and so counts nothing.
// - recountRollups: for bulk writers that insert events themselves (the demo seed, the benchmarks'
//   seeds, tests): the rollups of the organizations they wrote to, recomputed from the events. The
//   day counts are set, not added to, so running it twice changes nothing; it is meant for
//   organizations nobody else writes to meanwhile (a concurrent recorder's count could be lost).
//   Counts only grow from inserts: a writer that moves events between days (the demo's backdating,
//   as the tables' owner) deletes the organizations' day rows first.
import { PREPARE_THIS } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";

/** One event as the recorder has checked it. */
export interface EventRow {
  id: string;
  organizationId: string;
  action: string;
  actorKind: string;
  actorId: string;
  targetType: string;
  targetId: string;
  details: object;
  idempotencyKey: string | null;
  correlationId: string | null;
  contentHash: string;
}

/**
 * The recorder's statement, answering one row `{recorded}`: 1 when the event was inserted, 0 when its
 * idempotency key was already in the organization's log (then nothing is counted). The day is the
 * inserted row's own created_at (the transaction's start, the column's default) in UTC, as the
 * triggers took it.
 */
export function insertEventWithRollups(row: EventRow): Prisma.Sql {
  // Prepared: planning the four inserts cost more than running them (bench/audited-writes.ts).
  return Prisma.sql`${Prisma.raw(PREPARE_THIS)}
    WITH inserted AS (
      INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details,
                                idempotency_key, correlation_id, content_hash)
      VALUES (${row.id}::uuid, ${row.organizationId}::uuid, ${row.action}::text, ${row.actorKind}::"ActorKind", ${row.actorId}::text,
              ${row.targetType}::text, ${row.targetId}::text, ${JSON.stringify(row.details)}::jsonb, ${row.idempotencyKey}::text,
              ${row.correlationId}::text, ${row.contentHash}::text)
      -- A concurrent insert of the same key waits for the other transaction instead of failing;
      -- the caller then compares contents with what it wrote.
      ON CONFLICT (organization_id, idempotency_key) DO NOTHING
      RETURNING organization_id, created_at, action, actor_kind, actor_id, target_type, target_id
    ), days AS (
      INSERT INTO audit_event_days (organization_id, day, action, events)
      SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, action, 1 FROM inserted
      ON CONFLICT (organization_id, day, action) DO UPDATE SET events = audit_event_days.events + EXCLUDED.events
    ), actors AS (
      INSERT INTO audit_event_actors (organization_id, actor_id, actor_kind)
      SELECT organization_id, actor_id, actor_kind FROM inserted
      ON CONFLICT DO NOTHING
    ), users AS (
      INSERT INTO audit_event_users (organization_id, user_id)
      SELECT organization_id, named.user_id FROM inserted,
             LATERAL (VALUES (CASE WHEN actor_kind = 'user' THEN actor_id END),
                             (CASE WHEN target_type = 'user' THEN target_id END)) AS named (user_id)
       WHERE named.user_id IS NOT NULL
      ON CONFLICT DO NOTHING
    )
    SELECT count(*)::int AS recorded FROM inserted`;
}

/** What recountRollups needs of a connection: pg's Client, Pool and PoolClient all have it. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/**
 * Recomputes the rollups of these organizations from their events (see the header for when). In a
 * fixed order, as the recorder's upserts lock rows, so it never deadlocks against another writer.
 */
export async function recountRollups(db: Queryable, organizationIds: readonly string[]): Promise<void> {
  const organizations = [...new Set(organizationIds)];
  if (organizations.length === 0) return;
  await db.query(
    `INSERT INTO audit_event_days (organization_id, day, action, events)
     SELECT organization_id, (created_at AT TIME ZONE 'UTC')::date, action, count(*)
       FROM audit_events WHERE organization_id = ANY($1::uuid[])
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (organization_id, day, action) DO UPDATE SET events = EXCLUDED.events`,
    [organizations],
  );
  await noteNamedInEvents(db, organizations);
}

/** Events written between `from` and `to` (created_at, inclusive). */
export interface EventWindow {
  from: Date;
  to: Date;
}

/**
 * Adds the actors and users that these organizations' events name (those of `window` only, when
 * given) to audit_event_actors and audit_event_users. Both only gain rows, so it is exact however
 * often it runs: recountRollups and the upgrade's catch-up (rollup-catch-up.server.ts) share it.
 */
export async function noteNamedInEvents(db: Queryable, organizations: readonly string[], window?: EventWindow): Promise<void> {
  const within = window ? "AND created_at >= $2 AND created_at <= $3" : "";
  const values = window ? [organizations, window.from, window.to] : [organizations];
  await db.query(
    `INSERT INTO audit_event_actors (organization_id, actor_id, actor_kind)
     SELECT DISTINCT ON (organization_id, actor_id) organization_id, actor_id, actor_kind
       FROM audit_events WHERE organization_id = ANY($1::uuid[]) ${within}
      ORDER BY organization_id, actor_id
     ON CONFLICT DO NOTHING`,
    values,
  );
  await db.query(
    `INSERT INTO audit_event_users (organization_id, user_id)
     SELECT organization_id, user_id FROM (
       SELECT organization_id, actor_id AS user_id FROM audit_events
        WHERE organization_id = ANY($1::uuid[]) ${within} AND actor_kind = 'user'
       UNION
       SELECT organization_id, target_id FROM audit_events
        WHERE organization_id = ANY($1::uuid[]) ${within} AND target_type = 'user'
     ) AS named
     ORDER BY organization_id, user_id
     ON CONFLICT DO NOTHING`,
    values,
  );
}

// Reading the audit log: one page of events (keyset order, newest first), one event with its
// details, and the actors for the filter; the SQL that names actors and targets, which the export
// shares. Events per day for the chart are app/audit/activity.server.ts, the page's loader
// app/audit/audit-page.server.ts. Each read takes an AuditReader, the proof that the caller may
// read this organization's log (app/access/), decided by the caller: the tenant and the
// platform-admin views call these same functions.
//
// Written in SQL because the costs matter at a million events per organization
// (docs/decisions/0024-audit-view-at-scale.md): the position is a row comparison
// `(created_at, id) < (…)`, which PostgreSQL applies inside the index, so a page costs the same
// at any depth; names come from current records (docs/product-rules.md, Audit event rules 1-4)
// through joins in the same statement, so a page is one round trip; the actors come from a table
// the recorder keeps (one row per distinct actor, whatever the number of events). Nothing but ids is
// stored in events.
import type { AuditReader } from "~/access/organization-access.server";
import { uuidOrNull } from "~/db.server";
import { readPrepared } from "~/lib/read-routing.server";
import { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { auditEventIdSchema, type AuditQuery } from "./audit-query";
import { auditCursorSecret, signAuditCursor, verifyAuditCursor, type AuditPosition } from "./cursor.server";

/** Events per auditLog.list call (the page's own sizes are AUDIT_PAGE_SIZES, app/audit/audit-query.ts). */
export const AUDIT_PAGE_SIZE = 50;
const ACTORS_SHOWN = 500;

export interface ResolvedName {
  /** Display name, or null when the record is gone (the UI marks it deleted). */
  name: string | null;
  /** A second line: e-mail for users. */
  detail?: string;
}

export interface AuditListItem {
  id: string;
  createdAt: string;
  action: string;
  actorKind: string;
  actorId: string;
  actor: ResolvedName;
  targetType: string;
  targetId: string;
  target: ResolvedName;
}

interface NamedRow {
  id: string;
  createdAt: Date;
  action: string;
  actorKind: string;
  actorId: string;
  targetType: string;
  targetId: string;
  actorName: string | null;
  actorDetail: string | null;
  targetName: string | null;
  targetDetail: string | null;
}

/** The actor's current name and detail from the lookups `au` (a user) and `ak` (an API key): at
 * most one of them found a row, and a deleted user has neither (docs/product-rules.md, Audit event). */
const ACTOR_NAME = `COALESCE(CASE WHEN au.deleted_at IS NULL THEN au.name END, ak.name)`;
const ACTOR_DETAIL = `CASE WHEN au.deleted_at IS NULL THEN au.email END`;

/**
 * The event columns of `e` plus the current names of its actor and target. Deleted users (and
 * anything that no longer exists) give NULL names; an invitation's label is its address, gone with it.
 * An audit stream is named by its current name, or once deleted by the name its deletion recorded.
 */
export const NAMED_COLUMNS = Prisma.raw(`
  e.id, e.created_at AS "createdAt", e.action, e.actor_kind::text AS "actorKind", e.actor_id AS "actorId",
  e.target_type AS "targetType", e.target_id AS "targetId",
  ${ACTOR_NAME} AS "actorName",
  ${ACTOR_DETAIL} AS "actorDetail",
  COALESCE(CASE WHEN tu.deleted_at IS NULL THEN tu.name END, tk.name, ti.email, tor.name, ts.name, tsd.name) AS "targetName",
  CASE WHEN tu.deleted_at IS NULL THEN tu.email END AS "targetDetail"`);

/**
 * One primary-key lookup per row and kind of name, skipped when the row's actor or target is of
 * another kind (the condition on `e` is a one-time filter of each lookup). LIMIT 1 keeps each
 * lookup a subquery of its own: as plain joins PostgreSQL hashed whole tables (every key of the
 * organization) for 50 rows and spent milliseconds choosing the join order.
 */
/** The actor and target ids as uuids where they are uuids (NULL otherwise), computed once per row
 * for the lookups below, which need `e.actor_uuid` and `e.target_uuid` from the row source. */
const ACTOR_UUID = `${uuidOrNull("actor_id")} AS actor_uuid`;
const ID_UUIDS = Prisma.raw(`${ACTOR_UUID}, ${uuidOrNull("target_id")} AS target_uuid`);

/** The actor's current name: `au` (a user) or `ak` (an API key of the organization), for the
 * actor's id as a uuid expression (`actorUuid`). */
const actorNameJoins = (actorUuid: string) => `
  LEFT JOIN LATERAL (SELECT name, email, deleted_at FROM users
                     WHERE e.actor_kind = 'user' AND id = ${actorUuid} LIMIT 1) au ON true
  LEFT JOIN LATERAL (SELECT name FROM api_keys
                     WHERE e.actor_kind = 'api_key' AND id = ${actorUuid} AND organization_id = e.organization_id LIMIT 1) ak ON true`;
const ACTOR_NAME_JOINS = actorNameJoins("e.actor_uuid");

/**
 * The lookups NAMED_COLUMNS reads (`au`, `ak`, `tu`, `tk`, `ti`, `tor`, `ts`, `tsd`), for the actor's and the
 * target's id as uuid expressions. The view passes the uuids its row source computed once per
 * row; the export (app/audit/export/sql.server.ts) passes the conversions themselves, so that each
 * lookup depends on the row's kind and id alone and PostgreSQL can remember its answers (Memoize)
 * across a million rows. Same conditions either way, so the names are the same.
 */
export function nameJoins(actorUuid: string, targetUuid: string): Prisma.Sql {
  return Prisma.raw(`${actorNameJoins(actorUuid)}
  LEFT JOIN LATERAL (SELECT name, email, deleted_at FROM users
                     WHERE e.target_type = 'user' AND id = ${targetUuid} LIMIT 1) tu ON true
  LEFT JOIN LATERAL (SELECT name FROM api_keys
                     WHERE e.target_type = 'api_key' AND id = ${targetUuid} AND organization_id = e.organization_id LIMIT 1) tk ON true
  LEFT JOIN LATERAL (SELECT email FROM invitations
                     WHERE e.target_type = 'invitation' AND id = ${targetUuid} AND organization_id = e.organization_id LIMIT 1) ti ON true
  LEFT JOIN LATERAL (SELECT name FROM organizations
                     WHERE e.target_type = 'organization' AND e.target_id = e.organization_id::text AND id = e.organization_id LIMIT 1) tor ON true
  LEFT JOIN LATERAL (SELECT name FROM audit_streams
                     WHERE e.target_type = 'audit_stream' AND id = ${targetUuid} AND organization_id = e.organization_id LIMIT 1) ts ON true
  LEFT JOIN LATERAL (SELECT d.details->>'name' AS name FROM audit_events d
                     WHERE e.target_type = 'audit_stream' AND ts.name IS NULL AND d.organization_id = e.organization_id
                       AND d.target_id = e.target_id AND d.action = 'audit_stream.deleted' LIMIT 1) tsd ON true`);
}

const NAME_JOINS = nameJoins("e.actor_uuid", "e.target_uuid");

function toItem(row: NamedRow): AuditListItem {
  const name = (value: string | null, detail: string | null): ResolvedName => (detail ? { name: value, detail } : { name: value });
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    action: row.action,
    actorKind: row.actorKind,
    actorId: row.actorId,
    actor: name(row.actorName, row.actorDetail),
    targetType: row.targetType,
    targetId: row.targetId,
    target: name(row.targetName, row.targetDetail),
  };
}

/** The filter conditions on audit_events (no alias), each served by an index. */
export function filterConditions(organizationId: string, { filters, createdFrom, createdBefore }: AuditQuery): Prisma.Sql[] {
  return [
    Prisma.sql`organization_id = ${organizationId}::uuid`,
    ...(filters.action ? [Prisma.sql`action = ${filters.action}`] : []),
    ...(filters.actorId ? [Prisma.sql`actor_id = ${filters.actorId}`] : []),
    ...(filters.targetId ? [Prisma.sql`target_id = ${filters.targetId}`] : []),
    ...(createdFrom ? [Prisma.sql`created_at >= ${createdFrom}::timestamptz`] : []),
    ...(createdBefore ? [Prisma.sql`created_at < ${createdBefore}::timestamptz`] : []),
  ];
}

/**
 * The SQL of one page: `limit` rows from `position` on (or from the newest), in the index's order
 * (newer-direction pages read the index backwards), with names. Exported for the plan test.
 */
export function auditPageSql(organizationId: string, query: AuditQuery, position: AuditPosition | null, limit: number): Prisma.Sql {
  const conditions = filterConditions(organizationId, query);
  if (position) {
    const at = Prisma.sql`(${position.createdAt}::timestamptz, ${position.id}::uuid)`;
    conditions.push(position.direction === "older" ? Prisma.sql`(created_at, id) < ${at}` : Prisma.sql`(created_at, id) > ${at}`);
  }
  const order = position?.direction === "newer" ? Prisma.sql`created_at ASC, id ASC` : Prisma.sql`created_at DESC, id DESC`;
  // No ORDER BY outside: the rows are put in order in JavaScript, so the plan has no sort at all.
  // The limit is written into the text (an integer we choose, never input): with it known, the
  // generic plan of the prepared statement costs what a custom one does, and PostgreSQL keeps it
  // instead of planning every call.
  return Prisma.sql`
    SELECT ${NAMED_COLUMNS}
    FROM (
      SELECT id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, ${ID_UUIDS}
      FROM audit_events
      WHERE ${Prisma.join(conditions, " AND ")}
      ORDER BY ${order}
      LIMIT ${Prisma.raw(String(Math.trunc(limit)))}
    ) e
    ${NAME_JOINS}`;
}

const newestFirst = (a: NamedRow, b: NamedRow) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export interface AuditPage {
  events: AuditListItem[];
  /** Older events (the next page), or null at the end. */
  nextCursor: string | null;
  /** Newer events (the previous page), or null on the first page. */
  prevCursor: string | null;
}

/**
 * One page, newest first, without details (docs/product-rules.md, Audit event rule 5). Positions
 * are rows, not offsets, so events recorded while someone pages are neither repeated nor skipped.
 */
export async function listAuditEvents(reader: AuditReader, query: AuditQuery, limit = AUDIT_PAGE_SIZE): Promise<AuditPage> {
  const organizationId = reader.organization.id;
  const secret = await auditCursorSecret();
  const position = query.cursor ? verifyAuditCursor(secret, organizationId, query.filters, query.cursor) : null;
  const rows = (await readPrepared<NamedRow>(auditPageSql(organizationId, query, position, limit + 1))).sort(newestFirst);
  // One row more than shown tells whether there is more in the direction we read.
  const more = rows.length > limit;
  const page = position?.direction === "newer" ? rows.slice(rows.length - Math.min(rows.length, limit)) : rows.slice(0, limit);
  const first = page[0];
  const last = page.at(-1);
  const cursor = (row: NamedRow, direction: AuditPosition["direction"]) =>
    signAuditCursor(secret, organizationId, query.filters, { createdAt: row.createdAt, id: row.id, direction });
  const hasOlder = position?.direction === "newer" ? true : more;
  const hasNewer = position === null ? false : position.direction === "older" ? true : more;
  return {
    events: page.map(toItem),
    nextCursor: hasOlder && last ? cursor(last, "older") : null,
    prevCursor: hasNewer && first ? cursor(first, "newer") : null,
  };
}

/** One event with its details, loaded on demand. Another organization's event id is a 404. */
export async function getAuditEvent(reader: AuditReader, eventId: string) {
  const organizationId = reader.organization.id;
  if (!auditEventIdSchema.safeParse(eventId).success) throw new DomainError("BAD_REQUEST", "auditLog.badEvent");
  const [row] = await readPrepared<NamedRow & { details: unknown; correlationId: string | null }>(Prisma.sql`
    SELECT ${NAMED_COLUMNS}, e.details, e.correlation_id AS "correlationId"
    FROM (SELECT *, ${ID_UUIDS} FROM audit_events WHERE id = ${eventId}::uuid AND organization_id = ${organizationId}::uuid) e
    ${NAME_JOINS}`);
  if (!row) throw new DomainError("NOT_FOUND", "auditLog.eventNotFound");
  return { ...toItem(row), details: row.details, correlationId: row.correlationId, people: await detailPeople(row.details) };
}

/** Detail fields that hold a person's id (invitation.accepted's `userId`): the drawer shows them
 * like the actor, by today's name and e-mail address, or as deleted. */
const PERSON_FIELDS = ["userId"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Today's names of the people an event's details point to, by detail field (read at read time,
 * like every name in the log; a deleted account has a null name). */
async function detailPeople(details: unknown): Promise<Record<string, ResolvedName>> {
  if (typeof details !== "object" || details === null) return {};
  const people: Record<string, ResolvedName> = {};
  for (const field of PERSON_FIELDS) {
    const id: unknown = (details as Record<string, unknown>)[field];
    if (typeof id !== "string") continue;
    // Not a uuid: no account ever had that id (and the cast below would fail).
    const [user] = UUID.test(id)
      ? await readPrepared<{ name: string; email: string; deleted: boolean }>(Prisma.sql`
          SELECT name, email, deleted_at IS NOT NULL AS deleted FROM users WHERE id = ${id}::uuid`)
      : [];
    people[field] = user && !user.deleted ? { name: user.name, detail: user.email } : { name: null };
  }
  return people;
}

export type AuditEventDetail = Awaited<ReturnType<typeof getAuditEvent>>;

export interface AuditActor extends ResolvedName {
  kind: string;
  id: string;
}

/** The actor list's statement (exported for the plan test); with `actorId`, that one actor only
 * (a primary-key lookup: the filter's actor may be past the list's first 500). */
export function listAuditActorsSql(organizationId: string, actorId?: string): Prisma.Sql {
  const one = actorId === undefined ? Prisma.empty : Prisma.sql`AND actor_id = ${actorId}`;
  return Prisma.sql`
    SELECT e.actor_kind::text AS kind, e.actor_id AS id,
           ${Prisma.raw(ACTOR_NAME)} AS name,
           ${Prisma.raw(ACTOR_DETAIL)} AS detail
    FROM (
      SELECT actor_id, actor_kind, organization_id, ${Prisma.raw(ACTOR_UUID)}
      FROM audit_event_actors WHERE organization_id = ${organizationId}::uuid ${one}
      ORDER BY actor_id LIMIT ${Prisma.raw(String(ACTORS_SHOWN))}
    ) e
    ${Prisma.raw(ACTOR_NAME_JOINS)}`;
}

/**
 * Who appears as an actor in this organization's log, for the actor filter, by id: from
 * audit_event_actors, which the recorder keeps with the events (app/audit/rollups.server.ts),
 * so an organization with a million events pays what one with a thousand does.
 */
export async function listAuditActors(reader: AuditReader, actorId?: string): Promise<AuditActor[]> {
  const rows = await readPrepared<{ kind: string; id: string; name: string | null; detail: string | null }>(
    listAuditActorsSql(reader.organization.id, actorId),
  );
  return rows
    .map(({ kind, id, name, detail }) => ({ kind, id, name, ...(detail ? { detail } : {}) }))
    .sort((a, b) => (a.name ?? "\uffff").localeCompare(b.name ?? "\uffff") || a.id.localeCompare(b.id));
}

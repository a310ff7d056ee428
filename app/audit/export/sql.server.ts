// The SQL the export runs: the statement inside COPY (the view's filters, app/audit/query.server.ts,
// with names from a NameDirectory or from the view's lookups), the COPY around it with the values
// written in, and the settings of the export's transaction. The benchmark's psql baseline
// (bench/audit-export.ts) selects from the same rows.
import type { AuditExportRequest, AuditQuery } from "~/audit/audit-query";
import { filterConditions, nameJoins, NAMED_COLUMNS } from "~/audit/query.server";
import { uuidOrNull } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";

/** What COPY selects when a NameDirectory names the rows: the events' own columns in
 * EXPORT_COLUMNS order, the two name columns empty (NULL), so the rows have one shape either way. */
const PLAIN_SELECT = `id, created_at, action, actor_kind::text, actor_id, NULL::text, target_type, target_id, NULL::text, details::text`;

/** What COPY selects from the named rows `r` when PostgreSQL looks the names up (an organization
 * with more names than NAME_DIRECTORY_LIMIT): the same columns, as the benchmark's psql baseline
 * selects them (details as jsonb's text, converted once). */
const NAMED_SELECT = `r.id, r."createdAt", r.action, r."actorKind", r."actorId", r."actorName", r."targetType", r."targetId", r."targetName", r.details::text`;

/** The view's name lookups (app/audit/query.server.ts), each converting the id itself: Memoize
 * then answers repeated actors and targets from memory. */
const EXPORT_NAME_JOINS = nameJoins(uuidOrNull("e.actor_id"), uuidOrNull("e.target_id"));

/** Where an export's names come from: a NameDirectory read before the COPY, or the COPY's lookups. */
export type NamesFrom = "directory" | "lookups";

/** The statement inside COPY, with `$n` placeholders (exported for the plan test). */
export function exportSelectSql(organizationId: string, request: AuditExportRequest, namesFrom: NamesFrom): Prisma.Sql {
  if (namesFrom === "lookups") return namedRowsSql(organizationId, request.query, NAMED_SELECT);
  return Prisma.sql`
    SELECT ${Prisma.raw(PLAIN_SELECT)}
    FROM audit_events
    WHERE ${Prisma.join(filterConditions(organizationId, request.query), " AND ")}
    ORDER BY created_at DESC, id DESC`;
}

/** The whole COPY statement, values written in (see inlineSql). */
export function exportCopySql(
  organizationId: string,
  request: AuditExportRequest,
  namesFrom: NamesFrom,
  escapeLiteral: (value: string) => string,
): string {
  const select = inlineSql(exportSelectSql(organizationId, request, namesFrom), escapeLiteral);
  return `COPY (${select}) TO STDOUT (FORMAT binary)`;
}

/**
 * `select` over the named rows `r` (the audit view's columns and name lookups, plus details) that
 * the filters select, newest first, in the filter index's order (no sort). The benchmark's psql
 * baseline selects the plain columns from the same rows.
 */
export function namedRowsSql(organizationId: string, query: AuditQuery, select: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${Prisma.raw(select)}
    FROM (
      SELECT ${NAMED_COLUMNS}, e.details
      FROM (
        SELECT id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details
        FROM audit_events
        WHERE ${Prisma.join(filterConditions(organizationId, query), " AND ")}
        ORDER BY created_at DESC, id DESC
      ) e
      ${EXPORT_NAME_JOINS}
    ) r
    ORDER BY r."createdAt" DESC, r.id DESC`;
}

/** The settings every export runs with (see openSnapshot, snapshot.server.ts). */
export const EXPORT_SETTINGS = `SET LOCAL enable_sort = off; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0;
      SET LOCAL client_connection_check_interval = '1s'; SET LOCAL client_encoding = 'UTF8';`;

/** An instant as PostgreSQL reads it: ISO 8601, except that JavaScript writes years past 9999
 * as `+010000`, which PostgreSQL refuses (the end of the last accepted day, 9999-12-31, is one). */
export function postgresTimestamp(date: Date): string {
  return date.toISOString().replace(/^\+0*/, "");
}

/**
 * COPY takes no parameters, so values are written into the text as literals, each through
 * PostgreSQL's own quoting (`escapeLiteral`). They have passed the query contract's rules (ids,
 * action identifiers, dates) before they get here.
 */
export function inlineSql(sql: Prisma.Sql, escapeLiteral: (value: string) => string): string {
  return sql.text.replace(/\$(\d+)/g, (_, n: string) => {
    const value: unknown = sql.values[Number(n) - 1];
    if (value instanceof Date) return escapeLiteral(postgresTimestamp(value));
    if (typeof value === "string") return escapeLiteral(value);
    throw new Error(`cannot inline a ${typeof value} into the export's SQL`);
  });
}

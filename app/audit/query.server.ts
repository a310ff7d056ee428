// Reading the audit log: one page of events (keyset order: newest first), one event with its
// details, and the actors for the filter. Each read takes an AuditReader, the proof that the caller
// may read this organization's log (app/access/). Names are resolved from current records at read
// time, in one batch per page (docs/product-rules.md, Audit event rules 1-5); nothing but ids is stored in events.
import type { AuditReader } from "~/access/organization-access.server";
import { prisma } from "~/db.server";
import type { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { auditEventIdSchema, encodeCursor, parseAuditSearchParams, type AuditQuery } from "./audit-query";
import { presentDetails } from "./catalog";

const AUDIT_PAGE_SIZE = 50;

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

function whereOf(organizationId: string, { filters, createdFrom, createdBefore }: AuditQuery): Prisma.AuditEventWhereInput {
  return {
    organizationId,
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actorId ? { actorId: filters.actorId } : {}),
    ...(createdFrom || createdBefore ? { createdAt: { gte: createdFrom, lt: createdBefore } } : {}),
  };
}

async function resolveNames(organizationId: string, refs: { kind: string; id: string }[]): Promise<Map<string, ResolvedName>> {
  const idsOf = (kind: string) => [...new Set(refs.filter((r) => r.kind === kind).map((r) => r.id))];
  const uuids = (ids: string[]) => ids.filter(isUuid);
  const [users, keys, invitations, organizations] = await Promise.all([
    prisma.user.findMany({ where: { id: { in: uuids(idsOf("user")) } }, select: { id: true, name: true, email: true, deletedAt: true } }),
    prisma.apiKey.findMany({ where: { organizationId, id: { in: uuids(idsOf("api_key")) } }, select: { id: true, name: true } }),
    prisma.invitation.findMany({ where: { organizationId, id: { in: uuids(idsOf("invitation")) } }, select: { id: true, email: true } }),
    prisma.organization.findMany({
      where: { id: { in: uuids(idsOf("organization")).filter((id) => id === organizationId) } },
      select: { id: true, name: true },
    }),
  ]);
  const names = new Map<string, ResolvedName>();
  for (const u of users) names.set(`user:${u.id}`, u.deletedAt ? { name: null } : { name: u.name, detail: u.email });
  for (const k of keys) names.set(`api_key:${k.id}`, { name: k.name });
  for (const i of invitations) names.set(`invitation:${i.id}`, { name: i.email });
  for (const o of organizations) names.set(`organization:${o.id}`, { name: o.name });
  return names;
}

const listSelect = { id: true, createdAt: true, action: true, actorKind: true, actorId: true, targetType: true, targetId: true } as const;

async function withNames<T extends { actorKind: string; actorId: string; targetType: string; targetId: string; createdAt: Date }>(
  organizationId: string,
  rows: T[],
) {
  const names = await resolveNames(
    organizationId,
    rows.flatMap((r) => [
      { kind: r.actorKind, id: r.actorId },
      { kind: r.targetType, id: r.targetId },
    ]),
  );
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    actor: names.get(`${row.actorKind}:${row.actorId}`) ?? { name: null },
    target: names.get(`${row.targetType}:${row.targetId}`) ?? { name: null },
  }));
}

/** One page, newest first, without details (docs/product-rules.md, Audit event rule 5). */
export async function listAuditEvents(reader: AuditReader, query: AuditQuery, limit = AUDIT_PAGE_SIZE) {
  const organizationId = reader.organization.id;
  const { cursor } = query;
  const where = whereOf(organizationId, query);
  const rows = await prisma.auditEvent.findMany({
    where: cursor
      ? { AND: [where, { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }] }
      : where,
    select: listSelect,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    events: (await withNames(organizationId, page)) satisfies AuditListItem[],
    nextCursor: rows.length > limit && last ? encodeCursor(last) : null,
  };
}

/** One event with its details, loaded on demand. Another organization's event id is a 404. */
export async function getAuditEvent(reader: AuditReader, eventId: string) {
  const organizationId = reader.organization.id;
  // Prisma reads `id: undefined` as "no condition": never let a missing id match some event.
  if (!auditEventIdSchema.safeParse(eventId).success) throw new DomainError("BAD_REQUEST", "auditLog.badEvent");
  const row = await prisma.auditEvent.findFirst({
    where: { id: eventId, organizationId },
    select: { ...listSelect, details: true, correlationId: true },
  });
  if (!row) throw new DomainError("NOT_FOUND", "auditLog.eventNotFound");
  const [named] = await withNames(organizationId, [row]);
  return named!;
}

/** Who appears as an actor in this organization's log, for the actor filter. */
export async function listAuditActors(reader: AuditReader) {
  const organizationId = reader.organization.id;
  const rows = await prisma.auditEvent.groupBy({
    by: ["actorKind", "actorId"],
    where: { organizationId },
    orderBy: [{ actorKind: "asc" }, { actorId: "asc" }],
    take: 500,
  });
  const names = await resolveNames(
    organizationId,
    rows.map((r) => ({ kind: r.actorKind, id: r.actorId })),
  );
  return rows.map((r) => ({ kind: r.actorKind, id: r.actorId, ...(names.get(`${r.actorKind}:${r.actorId}`) ?? { name: null }) }));
}

/** Everything the audit page shows, for the tenant and the platform-admin routes alike. */
export async function loadAuditPage(reader: AuditReader, searchParams: URLSearchParams) {
  const query = parseAuditSearchParams(searchParams);
  const [page, actors, event] = await Promise.all([
    listAuditEvents(reader, query),
    listAuditActors(reader),
    query.event ? getAuditEvent(reader, query.event) : Promise.resolve(null),
  ]);
  return {
    filters: query.filters,
    isFirstPage: !query.cursor,
    actors,
    ...page,
    event: event ? { ...event, rows: presentDetails(event.action, event.details) } : null,
  };
}

export type AuditPageData = Awaited<ReturnType<typeof loadAuditPage>>;

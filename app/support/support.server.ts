// The platform support console's rules (docs/decisions/0026-support-console.md): a platform admin
// states a reason before reading an organization's audit log in a session, and every list, actor
// list and detail they read is recorded in the console's own records (support_actions), never in
// the organization's audit log. The reads themselves are the tenant view's functions, unchanged:
// only the access value differs.
import { v7 as uuidv7 } from "uuid";
import type { PlatformAdminAccess, SupportAccess, SupportGrant, SupportTarget } from "~/access/organization-access.server";
import { filtersToSearchParams, type AuditQuery } from "~/audit/audit-query";
import { loadAuditPage } from "~/audit/audit-page.server";
import { getAuditEvent, listAuditActors, listAuditEvents } from "~/audit/query.server";
import { prisma } from "~/db.server";
import { isVanishedReference } from "~/db-errors.server";
import { Prisma } from "~/generated/prisma/client";
import { endOfDay, isDateInRange, startOfDay } from "~/lib/dates";
import { DomainError } from "~/lib/domain-error";
import { isUuid } from "~/lib/ids";
import { decodeKeysetCursor, encodeKeysetCursor, splitPage } from "~/lib/keyset-cursor.server";
import { readPrepared } from "~/lib/read-routing.server";
import { noteRecordedChange } from "~/lib/request-scope.server";
import type { SupportAccessInput, SupportActionName, SupportLogFilters } from "./schemas";

interface Viewed {
  action: SupportActionName;
  subject: string | null;
}

/** One support record, about to be written: who did what in which organization, under which
 * reason. The request's answer then carries the read-your-writes cookie (the records list may be
 * read on a replica: app/lib/read-routing.server.ts). */
export function recordRow(adminUserId: string, organizationId: string, why: { reason: string; ticket: string | null }, viewed: Viewed) {
  noteRecordedChange();
  return { id: uuidv7(), adminUserId, organizationId, reason: why.reason, ticket: why.ticket, ...viewed };
}

/** Writes the records of what `access` just read, with the reason in force. */
async function record(access: SupportAccess, viewed: Viewed[]) {
  await prisma.supportAction.createMany({
    data: viewed.map((v) => recordRow(access.user.id, access.organization.id, access.grant, v)),
  });
}

/** The grant as pages show it (the banner). */
export const presentGrant = ({ reason, ticket, openedAt }: SupportGrant) => ({ reason, ticket, openedAt: openedAt.toISOString() });

/** What a list view was of: its filters as the URL shows them ("" is every event). */
const listSubject = (query: Pick<AuditQuery, "filters">) => filtersToSearchParams(query.filters).toString() || null;

/**
 * Opens (or re-opens, with a new reason) support access to the target for this session, and
 * records that it did. Stating the same reason again still records: each opening is a decision.
 */
export async function beginSupportAccess(target: SupportTarget, input: SupportAccessInput): Promise<void> {
  const { admin, organization } = target;
  const ticket = input.ticket ?? null;
  // The organization (or the session) may be deleted between the check and this write.
  await orNotFound(() =>
    prisma.$transaction(async (tx) => {
      await tx.supportAccessGrant.upsert({
        where: { sessionId_organizationId: { sessionId: admin.sessionId, organizationId: organization.id } },
        create: { sessionId: admin.sessionId, organizationId: organization.id, adminUserId: admin.user.id, reason: input.reason, ticket },
        update: { reason: input.reason, ticket, openedAt: new Date() },
        select: { sessionId: true },
      });
      await tx.supportAction.create({
        data: recordRow(admin.user.id, organization.id, { reason: input.reason, ticket }, { action: "access.opened", subject: null }),
        select: { id: true },
      });
    }),
  );
}

async function orNotFound<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isVanishedReference(error)) throw new DomainError("NOT_FOUND", "organizationNotFound");
    throw error;
  }
}

/** The reason and ticket this admin last stated for the organization (to offer them again after
 * signing in anew, which starts a new support session). */
export async function lastSupportReason(target: SupportTarget): Promise<{ reason: string; ticket: string | null } | null> {
  return prisma.supportAction.findFirst({
    where: { adminUserId: target.admin.user.id, organizationId: target.organization.id, action: "access.opened" },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { reason: true, ticket: true },
  });
}

/** The audit page as support sees it (the tenant page's loader, unchanged), recorded when its contents are sent. */
export async function supportAuditPage(access: SupportAccess, searchParams: URLSearchParams, { disclosed }: { disclosed: boolean }) {
  if (!disclosed) {
    // A HEAD request gets the list's status and headers but none of its contents: no view to
    // record. The drawer's event is not looked up: its 404 would tell, unrecorded, whether it exists.
    const listOnly = new URLSearchParams(searchParams);
    listOnly.delete("event");
    return loadAuditPage(access, listOnly);
  }
  const page = await loadAuditPage(access, searchParams);
  await record(access, [
    { action: "audit_log.listed", subject: listSubject(page) },
    ...(page.event ? [{ action: "audit_event.viewed" as const, subject: page.event.id }] : []),
  ]);
  return page;
}

export async function supportAuditList(access: SupportAccess, query: AuditQuery) {
  const page = await listAuditEvents(access, query);
  await record(access, [{ action: "audit_log.listed", subject: listSubject(query) }]);
  return page;
}

export async function supportAuditDetail(access: SupportAccess, eventId: string) {
  const event = await getAuditEvent(access, eventId);
  await record(access, [{ action: "audit_event.viewed", subject: event.id }]);
  return event;
}

export async function supportAuditActors(access: SupportAccess) {
  const actors = await listAuditActors(access);
  await record(access, [{ action: "audit_log.actors_listed", subject: null }]);
  return actors;
}

export const SUPPORT_LOG_PAGE_SIZE = 50;

export interface SupportRecord {
  id: string;
  createdAt: string;
  action: SupportActionName;
  admin: { id: string; name: string | null };
  organization: { id: string | null; name: string | null };
  reason: string;
  ticket: string | null;
  subject: string | null;
}

/** The console's records, newest first, filtered by admin, organization and UTC days (inclusive).
 * Names come from current records: a deleted admin or organization keeps its id, without a name. */
export async function listSupportRecords(
  _admin: PlatformAdminAccess,
  filters: SupportLogFilters,
): Promise<{ records: SupportRecord[]; nextCursor: string | null }> {
  const position = filters.cursor === undefined ? null : decodeKeysetCursor(filters.cursor, 2);
  if (filters.cursor !== undefined && (!position || !isDateInRange(new Date(position[0]!)) || !isUuid(position[1])))
    throw new DomainError("BAD_REQUEST", "supportLog.badCursor");
  const conditions: Prisma.Sql[] = [Prisma.sql`TRUE`];
  if (filters.adminId) conditions.push(Prisma.sql`s.admin_user_id = ${filters.adminId}::uuid`);
  if (filters.organizationId) conditions.push(Prisma.sql`s.organization_id = ${filters.organizationId}::uuid`);
  if (filters.from) conditions.push(Prisma.sql`s.created_at >= ${startOfDay(filters.from)}`);
  if (filters.to) conditions.push(Prisma.sql`s.created_at < ${endOfDay(filters.to)}`);
  if (position) conditions.push(Prisma.sql`(s.created_at, s.id) < (${new Date(position[0]!)}, ${position[1]!}::uuid)`);
  const rows = await readPrepared<{
    id: string;
    createdAt: Date;
    action: SupportActionName;
    adminId: string;
    adminName: string | null;
    organizationId: string | null;
    organizationName: string | null;
    reason: string;
    ticket: string | null;
    subject: string | null;
  }>(Prisma.sql`
    SELECT s.id::text, s.created_at AS "createdAt", s.action, s.admin_user_id::text AS "adminId",
           CASE WHEN u.deleted_at IS NULL THEN u.name END AS "adminName",
           s.organization_id::text AS "organizationId", o.name AS "organizationName",
           s.reason, s.ticket, s.subject
      FROM support_actions s
      LEFT JOIN users u ON u.id = s.admin_user_id
      LEFT JOIN organizations o ON o.id = s.organization_id
     WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY s.created_at DESC, s.id DESC
     LIMIT ${SUPPORT_LOG_PAGE_SIZE + 1}::int`);
  const { page, lastBeforeMore: last } = splitPage(rows, SUPPORT_LOG_PAGE_SIZE);
  return {
    records: page.map((r) => ({
      id: r.id,
      createdAt: r.createdAt.toISOString(),
      action: r.action,
      admin: { id: r.adminId, name: r.adminName },
      organization: { id: r.organizationId, name: r.organizationName },
      reason: r.reason,
      ticket: r.ticket,
      subject: r.subject,
    })),
    nextCursor: last ? encodeKeysetCursor([last.createdAt.toISOString(), last.id]) : null,
  };
}

/** The admin filter's choices: today's platform admins, and the admin the records are filtered
 * by when that is someone else (a former admin), so the filter shows who it is. */
export async function listSupportAdmins(_admin: PlatformAdminAccess, filteredBy?: string): Promise<{ id: string; name: string }[]> {
  return prisma.$queryRaw<{ id: string; name: string }[]>(Prisma.sql`
    SELECT u.id::text, u.name FROM users u
     WHERE (u.is_platform_admin OR u.id = ${filteredBy ?? null}::uuid) AND u.deleted_at IS NULL
     ORDER BY u.name, u.id`);
}

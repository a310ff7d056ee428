// The audit page's loader: the page of events, the actors for the filter, the chart, and the
// event the URL opens in the drawer. It ships what
// the page renders and nothing more: the drawer works out the detail rows from the event's details
// itself (app/audit/ui/detail-presentation.ts), as it must when it loads an event on demand.
import type { AuditReader } from "~/access/organization-access.server";
import { parseAuditSearchParams } from "~/audit/audit-query";
import { auditActivity } from "~/audit/activity.server";
import { getAuditEvent, listAuditActors, listAuditEvents, type AuditPage } from "~/audit/query.server";

/** Everything the audit page shows, for the tenant and the platform-admin routes alike. */
export async function loadAuditPage(reader: AuditReader, searchParams: URLSearchParams) {
  const query = parseAuditSearchParams(searchParams);
  const [page, actors, activity, event] = await Promise.all([
    listAuditEvents(reader, query, query.perPage),
    listAuditActors(reader),
    auditActivity(reader, query),
    query.event ? getAuditEvent(reader, query.event) : Promise.resolve(null),
  ]);
  const target = query.filters.targetId ? targetOfFilter(page, query.filters.targetId) : null;
  return {
    organizationId: reader.organization.id,
    filters: query.filters,
    perPage: query.perPage,
    // The filter's choices show names only (the e-mail stays with auditLog.actors).
    actors: actors.map(({ kind, id, name }) => ({ kind, id, name })),
    activity,
    target,
    ...page,
    event,
  };
}

/** The target filter's label: from the page's rows when one is there (no extra query). */
function targetOfFilter(page: AuditPage, targetId: string): { id: string; type: string | null; name: string | null } {
  const row = page.events.find((e) => e.targetId === targetId);
  return { id: targetId, type: row?.targetType ?? null, name: row?.target.name ?? null };
}

export type AuditPageData = Awaited<ReturnType<typeof loadAuditPage>>;

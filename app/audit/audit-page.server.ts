// The audit page's loader: the page of events, the actors for the filter, the chart, and the
// event the URL opens in the drawer. It ships what
// the page renders and nothing more: the drawer works out the detail rows from the event's details
// itself (app/audit/ui/detail-presentation.ts), as it must when it loads an event on demand.
import { redirect } from "react-router";
import type { AuditReader } from "~/access/organization-access.server";
import { parseAuditSearchParams, withoutEmptyParameters } from "~/audit/audit-query";
import { auditActivity } from "~/audit/activity.server";
import { auditFilterFacts } from "~/audit/filter-facts.server";
import { getAuditEvent, listAuditEvents } from "~/audit/query.server";

/** Everything the audit page shows, for the tenant and the platform-admin routes alike. */
export async function loadAuditPage(reader: AuditReader, searchParams: URLSearchParams) {
  const query = parseAuditSearchParams(searchParams);
  const [page, { actors, target, unknown }, activity, event] = await Promise.all([
    listAuditEvents(reader, query, query.perPage),
    auditFilterFacts(reader, query.filters),
    auditActivity(reader, query),
    query.event ? getAuditEvent(reader, query.event) : Promise.resolve(null),
  ]);
  return {
    organizationId: reader.organization.id,
    filters: query.filters,
    perPage: query.perPage,
    // The filter's choices show names only (the e-mail stays with auditLog.actors).
    actors: actors.map(({ kind, id, name }) => ({ kind, id, name })),
    activity,
    target,
    unknown,
    // "3 minutes ago" counts from here on the server and in the browser's first render alike, so
    // both render the same text; the browser then counts from its own clock.
    now: new Date().toISOString(),
    ...page,
    event,
  };
}

/**
 * A URL with empty parameters (`?action=&actorId=`, what a GET form without JavaScript sends) is
 * redirected to the same page without them: the address then shows only what applies, the same
 * address the form gives with JavaScript. Thrown by the routes after their access checks.
 */
export function redirectWithoutEmptyParameters(request: Request): void {
  const url = new URL(request.url);
  const clean = withoutEmptyParameters(url.search);
  if (clean !== null) throw redirect(`${url.pathname}${clean}`);
}

export type AuditPageData = Awaited<ReturnType<typeof loadAuditPage>>;

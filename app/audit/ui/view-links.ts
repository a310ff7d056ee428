// The links the audit view draws to itself. All are relative to the page (`?…`, or its bare path
// when no parameter is left), so the tenant and the platform-admin pages share them unchanged.
import { filtersToSearchParams, type AuditFilterName, type AuditFilters, type AuditPageSize } from "~/audit/audit-query";

export function auditViewLinks({ pathname, search }: { pathname: string; search: string }, filters: AuditFilters, perPage: AuditPageSize) {
  // Links to other pages keep the filters and the page size.
  const filterParams = filtersToSearchParams(filters, perPage);
  // A link to this view with these parameters (none: the bare path).
  const hrefOf = (params: URLSearchParams) => (params.size ? `?${params.toString()}` : pathname);
  const current = new URLSearchParams(search);
  // With JavaScript the URL's `event` opens the drawer without reloading the page's data.
  const openEventId = current.get("event");
  current.delete("event");
  // Each row's link: this page's parameters plus its event (one object, its `event` set per row).
  const rowParams = new URLSearchParams(current);
  return {
    /** The event the URL opens in the drawer, if any. */
    openEventId,
    /** This page with the drawer closed. */
    closeHref: hrefOf(current),
    /** This page without filters (the page size stays: it is a way of reading, not a filter). */
    clearHref: hrefOf(filtersToSearchParams({}, perPage)),
    /** This page with its other filters, without this one (from its first page). */
    withoutFilterHref: (name: AuditFilterName) => {
      const params = new URLSearchParams(filterParams);
      params.delete(name);
      return hrefOf(params);
    },
    eventHref: (id: string) => {
      rowParams.set("event", id);
      return `?${rowParams.toString()}`;
    },
    pageHref: (cursor: string | null) => {
      const params = new URLSearchParams(filterParams);
      if (cursor) params.set("cursor", cursor);
      return hrefOf(params);
    },
    // Another page size starts again at the newest events (with the same filters): a cursor marks
    // one edge of the page it came from, so keeping it would show a page that starts elsewhere.
    perPageHref: (size: AuditPageSize) => hrefOf(filtersToSearchParams(filters, size)),
  };
}

export type AuditViewLinks = ReturnType<typeof auditViewLinks>;

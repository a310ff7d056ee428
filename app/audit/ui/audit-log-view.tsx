// The audit log view, shared by the tenant page and the platform-admin page: same records,
// filters, chart, pagination and detail drawer; only the routes' authorization and the namespace
// the drawer loads details from differ. Works without JavaScript: the filters are a GET form,
// pages and the drawer are plain links and the loader serves an opened event. With JavaScript the
// drawer is a modal dialog whose details load on demand (app/audit/ui/event-drawer.tsx).
import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { useHydrated } from "~/components/use-hydrated";
import { Card, PageHeader } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { filtersToSearchParams } from "~/audit/audit-query";
import type { AuditPageData } from "~/audit/audit-page.server";
import { ActivityChart } from "~/audit/ui/activity-chart";
import { EventDrawer, StaticEventDrawer, type AuditDetailQuery } from "~/audit/ui/event-drawer";
import { EventRows } from "~/audit/ui/event-rows";
import { ExportCard, type AuditExportOffer } from "~/audit/ui/export-card";
import { FiltersCard } from "~/audit/ui/filters";
import { Pagination } from "~/audit/ui/pagination";
import { auditViewLinks } from "~/audit/ui/view-links";

export function AuditLogView({
  loaderData,
  detailQuery,
  exportOffer = null,
  headerActions = null,
}: {
  loaderData: AuditPageData;
  detailQuery: AuditDetailQuery;
  /** Omitted on the platform admin's view, which offers no export. */
  exportOffer?: AuditExportOffer | null;
  /** Links beside the title that the page adds (the tenant page: streaming, for those who manage it). */
  headerActions?: ReactNode;
}) {
  const { t } = useTranslation("audit");
  const location = useLocation();
  const hydrated = useHydrated();
  const { filters, perPage, events, nextCursor, prevCursor, actors, event, activity, target, unknown, now } = loaderData;
  const hasFilters = filtersToSearchParams(filters).size > 0;
  const links = auditViewLinks(location, filters, perPage);

  return (
    <div className="space-y-6">
      <PageHeader title={t("page.title")} description={t("page.description")} actions={headerActions} />
      <FiltersCard filters={filters} perPage={perPage} actors={actors} target={target} unknown={unknown} links={links} />

      {exportOffer ? <ExportCard offer={exportOffer} organizationId={loaderData.organizationId} filters={filters} /> : null}

      <Card title={t("page.chart.title")}>
        <ActivityChart days={activity} />
      </Card>

      <EventRows events={events} openEventId={links.openEventId} eventHref={links.eventHref} hasFilters={hasFilters} now={now} />

      <Pagination prevCursor={prevCursor} nextCursor={nextCursor} perPage={perPage} links={links} />

      {links.openEventId && hydrated ? (
        <EventDrawer eventId={links.openEventId} initial={event} detailQuery={detailQuery} closeHref={links.closeHref} now={now} />
      ) : event ? (
        <StaticEventDrawer event={event} closeHref={links.closeHref} now={now} />
      ) : null}
    </div>
  );
}

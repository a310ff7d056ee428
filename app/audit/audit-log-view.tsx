// The audit log view, shared by the tenant page and the platform-admin page: same records,
// filters, chart, pagination and detail drawer; only the routes' authorization and the namespace
// the drawer loads details from differ. Works without JavaScript: the filters are a GET form,
// pages and the drawer are plain links and the loader serves an opened event. With JavaScript the
// drawer is a modal dialog (focus inside, Esc closes, background inert, focus back on the row's
// link) whose details load on demand through TanStack Query.
import * as Dialog from "@radix-ui/react-dialog";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useLocation, useNavigate } from "react-router";
import { LocalTime, localTime, useTimeSetting } from "~/components/local-time";
import { Badge, Button, ButtonLink, Card, PageHeader, controlClass, cx } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import { useRoutedClicks } from "~/components/routed-links";
import {
  AUDIT_FILTER_NAMES,
  AUDIT_FILTERS,
  AUDIT_PAGE_SIZES,
  DEFAULT_AUDIT_PAGE_SIZE,
  auditExportHref,
  type AuditPageSize,
  filtersToSearchParams,
  type AuditFilterName,
  type AuditFilters,
} from "./audit-query";
import { planName } from "~/plans/catalog";
import { AUDIT_ACTIONS, actionLabelKey, presentDetails, type DetailValue } from "./catalog";
import type { ActivityDay, AuditEventDetail, AuditPageData, ResolvedName } from "./query.server";

/**
 * What the page offers for export (the tenant page only: support access is read-only). `blocker`
 * is the first reason the viewer cannot export now, the same one the export route would answer.
 */
export type AuditExportOffer =
  | { blocker: null }
  | { blocker: "plan"; planName: string; exportPlans: string[]; billingLink?: boolean }
  | { blocker: "billing"; billingLink?: boolean }
  | { blocker: "permission" | "twoFactor" };

/** The billing page (app/billing/ui/): the audit layer links to it by path, not by import. */
const BILLING_PAGE_PATH = "/dashboard/organization-settings/billing";

/** The download links (carrying the page's filters), or why there are none. Plain links: the
 * answer is a file, so the page stays; a refusal shows its message. */
function ExportCard({ offer, organizationId, filters }: { offer: AuditExportOffer; organizationId: string; filters: AuditFilters }) {
  const { t } = useTranslation("audit");
  if (offer.blocker !== null) {
    return (
      <Card title={t("page.export.title")}>
        <p className="text-sm text-slate-600" data-testid="audit-export-unavailable">
          {offer.blocker === "plan"
            ? t("page.export.unavailable.plan", { plan: offer.planName, plans: offer.exportPlans.join(", ") })
            : t(`page.export.unavailable.${offer.blocker}`)}{" "}
          {offer.blocker === "twoFactor" ? (
            <Link to="/dashboard/account/security" className="font-medium text-brand-600 hover:text-brand-700">
              {t("page.export.securityLink")}
            </Link>
          ) : null}
          {(offer.blocker === "billing" || offer.blocker === "plan") && offer.billingLink ? (
            <Link
              to={BILLING_PAGE_PATH}
              className="font-medium text-brand-600 hover:text-brand-700"
              data-testid="audit-export-billing-link"
            >
              {t("page.export.billingLink")}
            </Link>
          ) : null}
        </p>
      </Card>
    );
  }
  const linkClass =
    "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50";
  return (
    <Card title={t("page.export.title")} description={t("page.export.description")}>
      <p className="flex flex-wrap gap-2" data-testid="audit-export">
        <a href={auditExportHref(organizationId, filters, "csv")} className={linkClass}>
          {t("page.export.csv")}
        </a>
        <a href={auditExportHref(organizationId, filters, "json")} className={linkClass}>
          {t("page.export.ndjson")}
        </a>
      </p>
    </Card>
  );
}

/** How the drawer loads an event's details (the route decides the namespace: tenant or support). */
export type AuditDetailQuery = (eventId: string) => UseQueryOptions<AuditEventDetail, Error, AuditEventDetail, QueryKey>;

/** Answers of `translate` per argument, worked out once each: a page repeats a few actions and
 * target types across its rows, and each translation with a fallback is two i18next calls. */
function onceEach(translate: (value: string) => string): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    let answer = known.get(value);
    if (answer === undefined) {
      answer = translate(value);
      known.set(value, answer);
    }
    return answer;
  };
}

/** A target type as people read it (an unknown one shows its identifier): rows and drawer. */
function targetKindLabel(t: TFunction, type: string): string {
  return t(`targetTypes.${type}`, { defaultValue: type });
}

/** An action identifier as people read it (an unknown one shows its identifier). */
export function useActionLabel() {
  const { t } = useTranslation("audit");
  return useMemo(() => onceEach((action) => t(actionLabelKey(action), { defaultValue: t("unknownAction", { action }) })), [t]);
}

/** A name as the view shows it: a plain function, not a component (a page shows 100 of them). */
function nameView(t: TFunction, value: ResolvedName, id: string, kind?: string) {
  // As few elements and attributes as the name needs (the classes are in app/app.css).
  if (kind === "system") return <span className="audit-name">{t("actorKinds.system")}</span>;
  if (value.name === null) {
    return (
      <>
        <code className="audit-deleted">{id}</code> <Badge tone="slate">{t("page.deleted")}</Badge>
      </>
    );
  }
  if (!value.detail) return <span className="audit-name">{value.name}</span>;
  return (
    <>
      <span className="audit-name">{value.name}</span>
      <span className="audit-name-detail">{value.detail}</span>
    </>
  );
}

/** Roles, scopes, reasons, plans, billing states and actions are shown by their translated labels, never as raw identifiers. */
export function detailValueLabel(t: TFunction, field: string, value: string): string {
  if (field === "role" || ((field === "from" || field === "to") && ["owner", "admin", "member"].includes(value)))
    return t(`common:roles.${value}`, { defaultValue: value });
  if (field === "scopes") return t(`apiKeys:scopes.${value.replace(":", "_")}`, { defaultValue: value });
  if (field === "reason") return t(`audit:values.reason.${value}`, { defaultValue: value });
  if (field === "format") return t(`audit:values.format.${value}`, { defaultValue: value });
  // Plans by the catalog's name (a plan no longer in it shows its id); billing states by their names.
  if (field === "plan") return planName(value);
  if (field === "state") return t(`audit:values.billingState.${value}`, { defaultValue: value });
  if (field === "action") return t(actionLabelKey(value), { defaultValue: value });
  if (value === "true") return t("audit:values.yes");
  if (value === "false") return t("audit:values.no");
  return value;
}

function useValueLabel() {
  const { t } = useTranslation("audit");
  return (field: string, value: string) => detailValueLabel(t, field, value);
}

function DetailValueView({ field, value }: { field: string; value: DetailValue }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const label = useValueLabel();
  switch (value.kind) {
    case "named":
      if (value.value.length === 0) return <span>{t("values.none")}</span>;
      return (
        <span className="flex flex-wrap gap-1">
          {value.value.map((named) => (
            <Badge key={named.field}>{`${t(named.labelKey)}: ${label(named.field, named.value)}`}</Badge>
          ))}
        </span>
      );
    case "list":
      return (
        <span className="flex flex-wrap gap-1">
          {value.value.map((v) => (
            <Badge key={v}>{label(field, v)}</Badge>
          ))}
        </span>
      );
    case "change":
      return (
        <span className="[overflow-wrap:anywhere]">
          <span className="text-slate-500 line-through">{label(field, value.from)}</span> →{" "}
          <span className="font-medium">{label(field, value.to)}</span>
        </span>
      );
    case "datetime":
      return <span>{formats.dateTime(value.value)} UTC</span>;
    case "json":
      return <code className="block whitespace-pre-wrap break-all text-xs">{value.value}</code>;
    default:
      return <span className="[overflow-wrap:anywhere]">{label(field, value.value)}</span>;
  }
}

/** One filter's control, as AUDIT_FILTERS describes it (the target filter is a chip, not a control). */
function FilterControl({ name, filters, actors }: { name: AuditFilterName; filters: AuditFilters; actors: AuditPageData["actors"] }) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  const { control, label } = AUDIT_FILTERS[name];
  const value = filters[name] ?? "";
  if (control === "target") return value ? <input type="hidden" name={name} value={value} /> : null;
  return (
    <label className="block min-w-0 space-y-1.5 text-sm font-medium text-slate-800">
      <span>{t(label)}</span>
      {control === "date" ? (
        <input type="date" name={name} defaultValue={value} className={controlClass} />
      ) : (
        <select name={name} defaultValue={value} className={cx(controlClass, "truncate")}>
          {control === "action" ? (
            <>
              <option value="">{t("page.anyAction")}</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {actionLabel(action)}
                </option>
              ))}
            </>
          ) : (
            <>
              <option value="">{t("page.anyActor")}</option>
              {actors.map((actor) => (
                <option key={`${actor.kind}:${actor.id}`} value={actor.id}>
                  {actor.kind === "system" ? t("actorKinds.system") : (actor.name ?? `${actor.id} (${t("page.deleted")})`)}
                </option>
              ))}
            </>
          )}
        </select>
      )}
    </label>
  );
}

/** Hundredths of the chart's 48 units are finer than any screen shows; more digits are only bytes. */
const hundredths = (value: number) => Math.round(value * 100) / 100;

/** Events per day as bars: server-rendered SVG, one labelled bar per day, the busiest one marked. */
function ActivityChart({ days }: { days: ActivityDay[] }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return null;
  const total = days.reduce((sum, d) => sum + d.events, 0);
  const peak = days.reduce((best, d) => (d.events > best.events ? d : best), first);
  const dayLabel = (day: string) => formats.date(`${day}T00:00:00.000Z`);
  const range = { first: dayLabel(first.day), last: dayLabel(last.day) };
  const summary =
    total === 0
      ? t("page.chart.summaryEmpty", range)
      : t("page.chart.summary", { ...range, total: formats.number(total), peakDay: dayLabel(peak.day), peak: formats.number(peak.events) });
  const height = 48;
  const barWidth = 10;
  if (total === 0) {
    return (
      <p className="text-sm text-slate-600" data-testid="audit-activity">
        {summary}
      </p>
    );
  }
  return (
    <figure className="space-y-2" data-testid="audit-activity">
      <figcaption className="text-sm text-slate-600">{summary}</figcaption>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${days.length * barWidth} ${height}`}
        preserveAspectRatio="none"
        className="h-16 w-full"
      >
        {days.map((d, i) => {
          const h = Math.max(d.events > 0 ? 1.5 : 0, (d.events / peak.events) * height);
          return (
            <rect
              key={d.day}
              x={i * barWidth + 1}
              y={hundredths(height - h)}
              width={barWidth - 2}
              height={hundredths(h)}
              className={d === peak ? "fill-brand-600" : "fill-brand-300"}
            >
              <title>{t("page.chart.bar", { day: dayLabel(d.day), count: d.events, events: formats.number(d.events) })}</title>
            </rect>
          );
        })}
      </svg>
      <div className="flex justify-between text-xs text-slate-500" aria-hidden="true">
        <span>{range.first}</span>
        <span>{range.last}</span>
      </div>
    </figure>
  );
}

function DrawerBody({ event }: { event: AuditEventDetail }) {
  const { t } = useTranslation("audit");
  const rows = presentDetails(event.action, event.details);
  return (
    <dl className="mt-6 space-y-4 text-sm">
      <div>
        <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.time")}</dt>
        <dd>
          <LocalTime iso={event.createdAt} />
        </dd>
      </div>
      <div>
        <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.actor")}</dt>
        <dd>
          {nameView(t, event.actor, event.actorId, event.actorKind)}{" "}
          <span className="text-xs text-slate-500">({t(`actorKinds.${event.actorKind}`, { defaultValue: event.actorKind })})</span>
        </dd>
      </div>
      <div>
        <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.target")}</dt>
        <dd>
          <span className="audit-kind">{targetKindLabel(t, event.targetType)}</span> {nameView(t, event.target, event.targetId)}
        </dd>
      </div>
      {rows.length === 0 ? <p className="text-slate-500">{t("page.noDetails")}</p> : null}
      {rows.map((row) => (
        <div key={row.field}>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">
            {t(row.labelKey.replace(/^audit:/, ""), { defaultValue: row.field })}
          </dt>
          <dd>
            <DetailValueView field={row.field} value={row.value} />
          </dd>
        </div>
      ))}
      <details className="rounded-md bg-slate-50 p-3">
        <summary className="cursor-pointer text-xs font-semibold text-slate-600">{t("page.rawJson")}</summary>
        <pre className="mt-2 whitespace-pre-wrap break-all text-xs" data-testid="audit-raw-json">
          {JSON.stringify(event.details, null, 2)}
        </pre>
      </details>
      <div className="border-t border-slate-100 pt-4 text-xs text-slate-500">
        <p>
          {t("page.eventId")}: <code className="break-all">{event.id}</code>
        </p>
        <p>
          {t("page.actorId")}: <code className="break-all">{event.actorId}</code>
        </p>
        <p>
          {t("page.targetId")}: <code className="break-all">{event.targetId}</code>
        </p>
        {event.correlationId ? (
          <p>
            {t("page.correlationId")}: <code className="break-all">{event.correlationId}</code>
          </p>
        ) : null}
      </div>
    </dl>
  );
}

const drawerPanelClass = "h-full w-full max-w-md overflow-y-auto bg-white p-6 shadow-xl focus:outline-none";

/** With JavaScript: a modal dialog whose details come from the query (seeded by the loader on a deep link). */
function EventDrawer({
  eventId,
  initial,
  detailQuery,
  closeHref,
}: {
  eventId: string;
  initial: AuditEventDetail | null;
  detailQuery: AuditDetailQuery;
  closeHref: string;
}) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  const navigate = useNavigate();
  const query = useQuery({ ...detailQuery(eventId), initialData: initial?.id === eventId ? initial : undefined });
  const event = query.data;
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : navigate(closeHref, { preventScrollReset: true }))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/30" />
        <Dialog.Content
          className={cx(drawerPanelClass, "fixed inset-y-0 right-0 z-50")}
          data-testid="audit-drawer"
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            // Back to the link that opened it (it is not a Radix trigger: links work without JavaScript).
            const link = document.getElementById(`event-link-${eventId}`);
            if (link) {
              e.preventDefault();
              link.focus();
            }
          }}
        >
          <div className="flex items-start justify-between gap-4">
            <div>
              <Dialog.Title className="text-lg font-semibold text-slate-900">
                {event ? actionLabel(event.action) : t("page.loading")}
              </Dialog.Title>
              {event ? (
                <p className="mt-1 text-sm text-slate-500">{t(`actions.${event.action}.description`, { defaultValue: "" })}</p>
              ) : null}
            </div>
            <Dialog.Close className="rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100">
              {t("page.close")}
            </Dialog.Close>
          </div>
          {event ? <DrawerBody event={event} /> : null}
          {query.isError ? (
            <p role="alert" className="mt-6 text-sm text-red-700">
              {query.error.message || t("page.loadFailed")}
            </p>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Without JavaScript (and before hydration): the loader's event in a plain panel, closed by a link. */
function StaticEventDrawer({ event, closeHref }: { event: AuditEventDetail; closeHref: string }) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  return (
    <div className="fixed inset-0 z-30 flex justify-end bg-slate-900/30" data-testid="audit-drawer">
      <Link to={closeHref} className="flex-1" aria-label={t("page.close")} preventScrollReset />
      <aside role="dialog" aria-modal="true" aria-labelledby="audit-drawer-title" className={drawerPanelClass}>
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id="audit-drawer-title" className="text-lg font-semibold text-slate-900">
              {actionLabel(event.action)}
            </h2>
            <p className="mt-1 text-sm text-slate-500">{t(`actions.${event.action}.description`, { defaultValue: "" })}</p>
          </div>
          <Link to={closeHref} className="rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100" preventScrollReset>
            {t("page.close")}
          </Link>
        </div>
        <DrawerBody event={event} />
      </aside>
    </div>
  );
}

export function AuditLogView({
  loaderData,
  detailQuery,
  exportOffer = null,
}: {
  loaderData: AuditPageData;
  detailQuery: AuditDetailQuery;
  /** Omitted on the platform admin's view, which offers no export. */
  exportOffer?: AuditExportOffer | null;
}) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  const location = useLocation();
  const timeSetting = useTimeSetting();
  const { hydrated } = timeSetting;
  const { filters, perPage, events, nextCursor, prevCursor, actors, event, activity, target } = loaderData;
  const hasFilters = filtersToSearchParams(filters).size > 0;
  // Links to other pages keep the filters and the page size.
  const filterParams = filtersToSearchParams(filters, perPage);
  // A link to this view with these parameters (none: the bare path).
  const hrefOf = (params: URLSearchParams) => (params.size ? `?${params.toString()}` : location.pathname);
  // The words every row repeats, asked for once per page rather than once per row.
  const actorPrefix = `${t("page.actor")}: `;
  const showDetails = t("page.showDetails");
  const targetKind = onceEach((type) => targetKindLabel(t, type));
  const current = new URLSearchParams(location.search);
  // With JavaScript the URL's `event` opens the drawer without reloading the page's data.
  const openEventId = current.get("event");
  current.delete("event");
  const closeHref = hrefOf(current);
  // Each row's link: this page's parameters plus its event (one object, its `event` set per row).
  const rowParams = new URLSearchParams(current);
  const eventHref = (id: string) => {
    rowParams.set("event", id);
    return `?${rowParams.toString()}`;
  };
  // The rows' links are plain anchors routed by the list (app/components/routed-links.ts).
  const routeRowClicks = useRoutedClicks({ preventScrollReset: true });
  const pageHref = (cursor: string | null) => {
    const params = new URLSearchParams(filterParams);
    if (cursor) params.set("cursor", cursor);
    return hrefOf(params);
  };
  // Another page size starts again at the newest events (with the same filters): a cursor marks
  // one edge of the page it came from, so keeping it would show a page that starts elsewhere.
  const perPageHref = (size: AuditPageSize) => hrefOf(filtersToSearchParams(filters, size));
  const withoutTarget = (() => {
    const params = new URLSearchParams(filterParams);
    params.delete("targetId");
    return hrefOf(params);
  })();

  return (
    <div className="space-y-6">
      <PageHeader title={t("page.title")} description={t("page.description")} />
      <Card title={t("page.filters")}>
        <Form method="get" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-[repeat(4,minmax(0,1fr))_auto] xl:items-end">
          {AUDIT_FILTER_NAMES.map((name) => (
            <FilterControl key={name} name={name} filters={filters} actors={actors} />
          ))}
          {perPage === DEFAULT_AUDIT_PAGE_SIZE ? null : <input type="hidden" name="perPage" value={perPage} />}
          <div className="flex flex-wrap gap-2 sm:col-span-2 xl:col-span-1">
            <Button type="submit" className="whitespace-nowrap">
              {t("page.apply")}
            </Button>
            {hasFilters ? (
              <ButtonLink to={location.pathname} variant="secondary" className="whitespace-nowrap">
                {t("page.reset")}
              </ButtonLink>
            ) : null}
          </div>
        </Form>
        {target ? (
          <p className="mt-4 flex flex-wrap items-center gap-2 text-sm" data-testid="audit-target-filter">
            <Badge tone="brand">
              {target.name ? t("page.targetFilter", { name: target.name }) : t("page.targetFilterUnknown", { id: target.id })}
            </Badge>
            <Link to={withoutTarget} className="font-medium text-brand-600 hover:text-brand-700">
              {t("page.removeTargetFilter")}
            </Link>
          </p>
        ) : null}
      </Card>

      {exportOffer ? <ExportCard offer={exportOffer} organizationId={loaderData.organizationId} filters={filters} /> : null}

      <Card title={t("page.chart.title")}>
        <ActivityChart days={activity} />
      </Card>

      <Card>
        {events.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500" data-testid="audit-empty">
            {hasFilters ? t("page.emptyFiltered") : t("page.empty")}
          </p>
        ) : (
          <ul className="-my-3 divide-y divide-slate-100 text-sm" data-testid="audit-events" onClick={routeRowClicks}>
            {events.map((row) => {
              const label = actionLabel(row.action);
              return (
                <li key={row.id} className={cx("audit-row", openEventId === row.id && "bg-brand-50/60")}>
                  {localTime(row.createdAt, timeSetting)}
                  <span className="audit-name" data-testid="audit-action">
                    {label}
                  </span>
                  <span>
                    <span className="sr-only">{actorPrefix}</span>
                    {nameView(t, row.actor, row.actorId, row.actorKind)}
                  </span>
                  <span>
                    <span className="audit-kind">{targetKind(row.targetType)}</span> {nameView(t, row.target, row.targetId)}
                  </span>
                  <a id={`event-link-${row.id}`} href={eventHref(row.id)}>
                    {showDetails}
                    <span className="sr-only">{`: ${label}`}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        )}
      </Card>

      <nav className="flex flex-wrap items-center justify-between gap-3" aria-label={t("page.pagination")}>
        <span className="flex flex-wrap gap-2">
          {prevCursor ? (
            <>
              <ButtonLink to={pageHref(null)} variant="secondary">
                {t("page.firstPage")}
              </ButtonLink>
              <ButtonLink to={pageHref(prevCursor)} variant="secondary" data-testid="audit-prev-page">
                ← {t("page.previousPage")}
              </ButtonLink>
            </>
          ) : null}
        </span>
        <span className="flex items-center gap-1 text-sm text-slate-600" data-testid="audit-per-page">
          <span id="audit-per-page-label" className="mr-1">
            {t("page.perPage")}
          </span>
          {AUDIT_PAGE_SIZES.map((size) =>
            size === perPage ? (
              <span key={size} aria-current="true" className="rounded-md bg-slate-100 px-2 py-1 font-semibold text-slate-900">
                {size}
              </span>
            ) : (
              <Link
                key={size}
                to={perPageHref(size)}
                aria-describedby="audit-per-page-label"
                preventScrollReset
                className="rounded-md px-2 py-1 font-medium text-brand-600 hover:bg-slate-50 hover:text-brand-700"
              >
                {size}
              </Link>
            ),
          )}
        </span>
        {nextCursor ? (
          <ButtonLink to={pageHref(nextCursor)} variant="secondary" data-testid="audit-next-page">
            {t("page.nextPage")} →
          </ButtonLink>
        ) : null}
      </nav>

      {openEventId && hydrated ? (
        <EventDrawer eventId={openEventId} initial={event} detailQuery={detailQuery} closeHref={closeHref} />
      ) : event ? (
        <StaticEventDrawer event={event} closeHref={closeHref} />
      ) : null}
    </div>
  );
}

// The audit log view, shared by the tenant page and the platform-admin page: same records,
// filters, pagination and detail panel; only the routes' authorization differs.
// Works without JavaScript: the filters are a GET form, pages and the panel are plain links.
import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { Badge, Button, ButtonLink, Card, PageHeader, controlClass, cx } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import { AUDIT_FILTER_NAMES, AUDIT_FILTERS, filtersToSearchParams, type AuditFilterName, type AuditFilters } from "./audit-query";
import { AUDIT_ACTIONS, actionLabelKey, type DetailValue } from "./catalog";
import type { AuditPageData, ResolvedName } from "./query.server";

function useActionLabel() {
  const { t } = useTranslation("audit");
  return (action: string) => t(actionLabelKey(action), { defaultValue: t("unknownAction", { action }) });
}

function Name({ value, id }: { value: ResolvedName; id: string }) {
  const { t } = useTranslation("audit");
  if (value.name === null) {
    return (
      <span className="text-slate-500">
        <code className="break-all text-xs">{id}</code> <Badge tone="slate">{t("page.deleted")}</Badge>
      </span>
    );
  }
  return (
    <span>
      <span className="font-medium text-slate-900">{value.name}</span>
      {value.detail ? <span className="block text-xs text-slate-500">{value.detail}</span> : null}
    </span>
  );
}

function DetailValueView({ value }: { value: DetailValue }) {
  const formats = useFormats();
  switch (value.kind) {
    case "list":
      return (
        <span className="flex flex-wrap gap-1">
          {value.value.map((v) => (
            <Badge key={v}>{v}</Badge>
          ))}
        </span>
      );
    case "change":
      return (
        <span>
          <span className="text-slate-500 line-through">{value.from}</span> → <span className="font-medium">{value.to}</span>
        </span>
      );
    case "datetime":
      return <span>{formats.dateTime(value.value)}</span>;
    case "json":
      return <code className="block whitespace-pre-wrap break-all text-xs">{value.value}</code>;
    default:
      return <span className="break-all">{value.value}</span>;
  }
}

/** One filter's control, as AUDIT_FILTERS describes it. */
function FilterControl({ name, filters, actors }: { name: AuditFilterName; filters: AuditFilters; actors: AuditPageData["actors"] }) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  const { control, label } = AUDIT_FILTERS[name];
  const value = filters[name] ?? "";
  return (
    <label className="block space-y-1.5 text-sm font-medium text-slate-800">
      <span>{t(label)}</span>
      {control === "date" ? (
        <input type="date" name={name} defaultValue={value} className={controlClass} />
      ) : (
        <select name={name} defaultValue={value} className={controlClass}>
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
                  {actor.name ?? `${actor.id} (${t("page.deleted")})`}
                </option>
              ))}
            </>
          )}
        </select>
      )}
    </label>
  );
}

export function AuditLogView({ loaderData }: { loaderData: AuditPageData }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const actionLabel = useActionLabel();
  const location = useLocation();
  const { filters, events, nextCursor, isFirstPage, actors, event } = loaderData;
  const filterParams = filtersToSearchParams(filters);
  const hasFilters = filterParams.size > 0;
  const withParams = (extra: Record<string, string>) => {
    const params = new URLSearchParams(location.search);
    params.delete("event");
    for (const [key, value] of Object.entries(extra)) params.set(key, value);
    return `?${params.toString()}`;
  };
  const closeHref = (() => {
    const params = new URLSearchParams(location.search);
    params.delete("event");
    return params.size ? `?${params.toString()}` : location.pathname;
  })();

  return (
    <div className="space-y-6">
      <PageHeader title={t("page.title")} description={t("page.description")} />
      <Card title={t("page.filters")}>
        <Form method="get" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
          {AUDIT_FILTER_NAMES.map((name) => (
            <FilterControl key={name} name={name} filters={filters} actors={actors} />
          ))}
          <div className="flex gap-2">
            <Button type="submit">{t("page.apply")}</Button>
            {hasFilters ? (
              <ButtonLink to={location.pathname} variant="secondary">
                {t("page.reset")}
              </ButtonLink>
            ) : null}
          </div>
        </Form>
      </Card>

      <Card>
        {events.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500" data-testid="audit-empty">
            {hasFilters ? t("page.emptyFiltered") : t("page.empty")}
          </p>
        ) : (
          <ul className="-my-3 divide-y divide-slate-100" data-testid="audit-events">
            {events.map((row) => (
              <li
                key={row.id}
                className={cx(
                  "grid gap-2 py-3 sm:grid-cols-[11rem_1fr_1fr_1fr_auto] sm:items-center",
                  event?.id === row.id && "bg-brand-50/60",
                )}
              >
                <time dateTime={row.createdAt} className="text-sm text-slate-600">
                  {formats.dateTimeSeconds(row.createdAt)}
                </time>
                <span className="text-sm font-medium text-slate-900" data-testid="audit-action">
                  {actionLabel(row.action)}
                </span>
                <span className="text-sm">
                  <span className="sr-only">{t("page.actor")}: </span>
                  <Name value={row.actor} id={row.actorId} />
                </span>
                <span className="text-sm">
                  <span className="mr-1 text-xs uppercase tracking-wide text-slate-400">
                    {t(`targetTypes.${row.targetType}`, { defaultValue: row.targetType })}
                  </span>
                  <Name value={row.target} id={row.targetId} />
                </span>
                <Link
                  to={withParams({ event: row.id })}
                  className="text-sm font-semibold text-brand-600 hover:text-brand-700"
                  preventScrollReset
                >
                  {t("page.showDetails")}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <nav className="flex justify-between gap-3" aria-label={t("page.title")}>
        {!isFirstPage ? (
          <ButtonLink to={filterParams.size ? `?${filterParams.toString()}` : location.pathname} variant="secondary">
            {t("page.firstPage")}
          </ButtonLink>
        ) : (
          <span />
        )}
        {nextCursor ? (
          <ButtonLink to={withParams({ cursor: nextCursor })} variant="secondary" data-testid="audit-next-page">
            {t("page.nextPage")} →
          </ButtonLink>
        ) : null}
      </nav>

      {event ? (
        <div className="fixed inset-0 z-30 flex justify-end bg-slate-900/30" data-testid="audit-drawer">
          <Link to={closeHref} className="flex-1" aria-label={t("page.close")} preventScrollReset />
          <aside
            role="dialog"
            aria-modal="true"
            aria-labelledby="audit-drawer-title"
            className="h-full w-full max-w-md overflow-y-auto bg-white p-6 shadow-xl"
          >
            <div className="flex items-start justify-between gap-4">
              <div>
                <h2 id="audit-drawer-title" className="text-lg font-semibold text-slate-900">
                  {actionLabel(event.action)}
                </h2>
                <p className="mt-1 text-sm text-slate-500">{t(`actions.${event.action}.description`, { defaultValue: "" })}</p>
              </div>
              <Link
                to={closeHref}
                className="rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100"
                preventScrollReset
              >
                {t("page.close")}
              </Link>
            </div>
            <dl className="mt-6 space-y-4 text-sm">
              <div>
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.time")}</dt>
                <dd>{formats.dateTimeSeconds(event.createdAt)}</dd>
              </div>
              <div>
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.actor")}</dt>
                <dd>
                  <Name value={event.actor} id={event.actorId} />{" "}
                  <span className="text-xs text-slate-500">({t(`actorKinds.${event.actorKind}`, { defaultValue: event.actorKind })})</span>
                </dd>
              </div>
              <div>
                <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.target")}</dt>
                <dd>
                  <Name value={event.target} id={event.targetId} />
                </dd>
              </div>
              {event.rows.length === 0 ? <p className="text-slate-500">{t("page.noDetails")}</p> : null}
              {event.rows.map((row) => (
                <div key={row.field}>
                  <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">
                    {t(row.labelKey.replace(/^audit:/, ""), { defaultValue: row.field })}
                  </dt>
                  <dd>
                    <DetailValueView value={row.value} />
                  </dd>
                </div>
              ))}
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
          </aside>
        </div>
      ) : null}
    </div>
  );
}

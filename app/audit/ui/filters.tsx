// The audit page's filters: a GET form drawn from AUDIT_FILTERS (app/audit/audit-query.ts), so it
// works without JavaScript, and the target filter as a chip that links back to the unfiltered list.
// The controls always show what the URL applies (docs/decisions/0032-audit-filters-and-export-page.md):
// the form is drawn afresh whenever the applied filters change (Back and Forward included), a
// value the page does not know is one of the choices and is named below with a link that drops
// it, and the form sends no empty parameters (the server redirects a URL with some to its clean
// form, for the form without JavaScript).
import type { FormEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { Badge, Button, ButtonLink, Card, controlClass, cx } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import {
  AUDIT_FILTER_NAMES,
  AUDIT_FILTERS,
  DEFAULT_AUDIT_PAGE_SIZE,
  filtersToSearchParams,
  type AuditFilterName,
  type AuditFilters,
  type AuditPageSize,
} from "~/audit/audit-query";
import { AUDIT_ACTIONS } from "~/audit/catalog";
import type { AuditPageData } from "~/audit/audit-page.server";
import type { UnknownFilters } from "~/audit/filter-facts.server";
import { useActionLabel } from "~/audit/ui/row-labels";
import type { AuditViewLinks } from "~/audit/ui/view-links";

/** One filter's control, as AUDIT_FILTERS describes it (the target filter is a chip, not a control). */
function FilterControl({
  name,
  filters,
  actors,
  unknown,
}: {
  name: AuditFilterName;
  filters: AuditFilters;
  actors: AuditPageData["actors"];
  unknown: UnknownFilters;
}) {
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
              {unknown.action ? <option value={unknown.action}>{t("filterNotes.unknown.action", { value: unknown.action })}</option> : null}
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {actionLabel(action)}
                </option>
              ))}
            </>
          ) : (
            <>
              <option value="">{t("page.anyActor")}</option>
              {unknown.actorId ? (
                <option value={unknown.actorId}>{t("filterNotes.unknown.actorId", { value: unknown.actorId })}</option>
              ) : null}
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

/** "Unknown action: nope", each with a link that drops that filter alone. */
function UnknownFilterNotes({
  unknown,
  withoutFilterHref,
}: {
  unknown: UnknownFilters;
  withoutFilterHref: AuditViewLinks["withoutFilterHref"];
}) {
  const { t } = useTranslation("audit");
  const entries = (["action", "actorId", "targetId"] as const).flatMap((name) => {
    const value = unknown[name];
    return value === undefined ? [] : [{ name, value }];
  });
  if (entries.length === 0) return null;
  return (
    <ul className="mt-4 space-y-2 text-sm" data-testid="audit-unknown-filters">
      {entries.map(({ name, value }) => (
        <li key={name} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md bg-amber-50 px-3 py-2 text-amber-900">
          <span className="[overflow-wrap:anywhere]">{t(`filterNotes.unknown.${name}`, { value })}</span>
          <Link to={withoutFilterHref(name)} className="font-medium underline hover:text-amber-950">
            {t("filterNotes.remove")}
            <span className="sr-only">{` (${t(AUDIT_FILTERS[name].label)})`}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function FiltersCard({
  filters,
  perPage,
  actors,
  target,
  unknown,
  links,
}: {
  filters: AuditFilters;
  perPage: AuditPageSize;
  actors: AuditPageData["actors"];
  target: AuditPageData["target"];
  unknown: UnknownFilters;
  links: Pick<AuditViewLinks, "clearHref" | "withoutFilterHref">;
}) {
  const { t } = useTranslation("audit");
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const applied = filtersToSearchParams(filters, perPage).toString();
  // With JavaScript: the same GET, minus the empty fields, so the address never reads `?action=&…`.
  const submitWithoutEmpty = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget))
      if (typeof value === "string" && value.trim()) params.append(name, value);
    void navigate(params.size ? `?${params.toString()}` : pathname);
  };
  return (
    <Card title={t("page.filters")}>
      {/* Keyed by what the URL applies: a new set of filters (Apply, Back, Forward, a link) draws
          the controls afresh from it, so a choice that was never applied cannot linger. */}
      <form
        key={applied}
        method="get"
        autoComplete="off"
        onSubmit={submitWithoutEmpty}
        className="grid gap-4 sm:grid-cols-2 xl:grid-cols-[minmax(0,3fr)_minmax(0,3fr)_minmax(0,2fr)_minmax(0,2fr)] xl:items-end 2xl:grid-cols-[minmax(0,3fr)_minmax(0,3fr)_minmax(0,2fr)_minmax(0,2fr)_auto]"
        data-testid="audit-filters"
      >
        {AUDIT_FILTER_NAMES.map((name) => (
          <FilterControl key={name} name={name} filters={filters} actors={actors} unknown={unknown} />
        ))}
        {perPage === DEFAULT_AUDIT_PAGE_SIZE ? null : <input type="hidden" name="perPage" value={perPage} />}
        {/* Below the controls up to 2xl, and the selects wider than the dates: beside them, Apply and
            "Clear filters" (wider in German) squeezed the selects at 1280 px until they read
            "Einla…", hiding what the URL applies. */}
        <div className="flex flex-wrap gap-2 sm:col-span-2 xl:col-span-4 2xl:col-span-1">
          <Button type="submit" className="whitespace-nowrap">
            {t("page.apply")}
          </Button>
          {Object.keys(filters).length > 0 ? (
            <ButtonLink to={links.clearHref} variant="secondary" className="whitespace-nowrap" data-testid="audit-clear-filters">
              {t("filterNotes.clear")}
            </ButtonLink>
          ) : null}
        </div>
      </form>
      <UnknownFilterNotes unknown={unknown} withoutFilterHref={links.withoutFilterHref} />
      {target ? (
        <p className="mt-4 flex flex-wrap items-center gap-2 text-sm" data-testid="audit-target-filter">
          <Badge tone="brand">
            {target.name ? t("page.targetFilter", { name: target.name }) : t("page.targetFilterUnknown", { id: target.id })}
          </Badge>
          <Link to={links.withoutFilterHref("targetId")} className="font-medium text-brand-600 hover:text-brand-700">
            {t("page.removeTargetFilter")}
          </Link>
        </p>
      ) : null}
    </Card>
  );
}

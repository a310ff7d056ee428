// The audit page's filters: a GET form drawn from AUDIT_FILTERS (app/audit/audit-query.ts), so it
// works without JavaScript, and the target filter as a chip that links back to the unfiltered list.
import { Form, Link } from "react-router";
import { Badge, Button, ButtonLink, Card, controlClass, cx } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import {
  AUDIT_FILTER_NAMES,
  AUDIT_FILTERS,
  DEFAULT_AUDIT_PAGE_SIZE,
  type AuditFilterName,
  type AuditFilters,
  type AuditPageSize,
} from "~/audit/audit-query";
import { AUDIT_ACTIONS } from "~/audit/catalog";
import type { AuditPageData } from "~/audit/audit-page.server";
import { useActionLabel } from "~/audit/ui/row-labels";

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

export function FiltersCard({
  filters,
  perPage,
  actors,
  target,
  hasFilters,
  resetHref,
  withoutTargetHref,
}: {
  filters: AuditFilters;
  perPage: AuditPageSize;
  actors: AuditPageData["actors"];
  target: AuditPageData["target"];
  hasFilters: boolean;
  /** The page without filters. */
  resetHref: string;
  /** The page with its other filters, without the target's. */
  withoutTargetHref: string;
}) {
  const { t } = useTranslation("audit");
  return (
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
            <ButtonLink to={resetHref} variant="secondary" className="whitespace-nowrap">
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
          <Link to={withoutTargetHref} className="font-medium text-brand-600 hover:text-brand-700">
            {t("page.removeTargetFilter")}
          </Link>
        </p>
      ) : null}
    </Card>
  );
}

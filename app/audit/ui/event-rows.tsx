// The audit page's list of events: one row per event with its time, action, actor and target, and
// a link that opens the drawer. Each row is plain elements, not a component, and the links are
// plain anchors routed by the list (app/components/routed-links.ts): a page has up to 100 rows,
// and per-row components and <Link>s were a large part of the server's rendering time.
import { localTime, useTimeSetting } from "~/components/local-time";
import { useRoutedClicks } from "~/components/routed-links";
import { Card, cx } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import type { AuditListItem } from "~/audit/query.server";
import { nameView, onceEach, targetKindLabel, useActionLabel } from "~/audit/ui/row-labels";

export function EventRows({
  events,
  openEventId,
  eventHref,
  hasFilters,
}: {
  events: AuditListItem[];
  openEventId: string | null;
  eventHref: (id: string) => string;
  hasFilters: boolean;
}) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  const timeSetting = useTimeSetting();
  // The words every row repeats, asked for once per page rather than once per row.
  const actorPrefix = `${t("page.actor")}: `;
  const showDetails = t("page.showDetails");
  const targetKind = onceEach((type) => targetKindLabel(t, type));
  const routeRowClicks = useRoutedClicks({ preventScrollReset: true });
  return (
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
  );
}

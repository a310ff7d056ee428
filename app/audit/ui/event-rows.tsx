// The audit page's list of events: one row per event with its time, action, actor and target, and
// a link that opens the drawer. Column headers above the rows on wider screens; each cell also
// carries its column's name, visible on phones (where the rows stack) and for screen readers
// everywhere, so a row read alone still says which name is the actor and which the target.
// Times are relative ("3 minutes ago"), the exact time on hover (app/components/relative-time.tsx). Each row is plain elements, not a component, and the links are
// plain anchors routed by the list (app/components/routed-links.ts): a page has up to 100 rows,
// and per-row components and <Link>s were a large part of the server's rendering time.
import { useTimeSetting } from "~/components/local-time";
import { relativeTime, useNow } from "~/components/relative-time";
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
  now: serverNow,
}: {
  events: AuditListItem[];
  openEventId: string | null;
  eventHref: (id: string) => string;
  hasFilters: boolean;
  /** When the page was read (the loader's clock), for "3 minutes ago". */
  now: string;
}) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  const timeSetting = useTimeSetting();
  const now = useNow(serverNow);
  // The words every row repeats, asked for once per page rather than once per row.
  const column = { time: t("page.time"), action: t("page.action"), actor: t("page.actor"), target: t("page.target") };
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
        <>
          {/* For the eye: every cell names its column for screen readers already. */}
          <div className="audit-row audit-head" aria-hidden="true" data-testid="audit-columns">
            <span>{column.time}</span>
            <span>{column.action}</span>
            <span>{column.actor}</span>
            <span>{column.target}</span>
            <span>{t("page.details")}</span>
          </div>
          <ul className="-my-3 divide-y divide-slate-100 text-sm sm:mt-0" data-testid="audit-events" onClick={routeRowClicks}>
            {events.map((row) => {
              const label = actionLabel(row.action);
              return (
                <li key={row.id} className={cx("audit-row", openEventId === row.id && "bg-brand-50/30")}>
                  <span className="audit-when">
                    <span className="audit-label">{column.time}</span>
                    {relativeTime(row.createdAt, now, timeSetting)}
                  </span>
                  <span>
                    <span className="audit-label">{column.action}</span>
                    <span className="audit-name" data-testid="audit-action">
                      {label}
                    </span>
                  </span>
                  <span>
                    <span className="audit-label">{column.actor}</span>
                    {nameView(t, row.actor, row.actorId, row.actorKind)}
                  </span>
                  <span>
                    <span className="audit-label">{column.target}</span>
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
        </>
      )}
    </Card>
  );
}

// The detail drawer of one event. Without JavaScript (and before hydration) a plain panel with the
// loader's event, closed by a link. With JavaScript a modal dialog (focus inside, Esc closes,
// background inert, focus back on the row's link) whose details load on demand through TanStack
// Query. Either way the rows are worked out here from the event's details (detail-presentation.ts).
import * as Dialog from "@radix-ui/react-dialog";
import { useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";
import { Link, useNavigate } from "react-router";
import { CopyButton } from "~/components/copy-button";
import { LocalTime, useTimeSetting } from "~/components/local-time";
import { relativeTimeText, useNow } from "~/components/relative-time";
import { cx } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import type { AuditEventDetail } from "~/audit/query.server";
import { presentDetails } from "~/audit/ui/detail-presentation";
import { DetailValueView } from "~/audit/ui/detail-value";
import { nameView, targetKindLabel, useActionLabel } from "~/audit/ui/row-labels";

/** How the drawer loads an event's details (the route decides the namespace: tenant or support). */
export type AuditDetailQuery = (eventId: string) => UseQueryOptions<AuditEventDetail, Error, AuditEventDetail, QueryKey>;

/** `now`: when the page was read (the loader's clock), for "3 minutes ago" beside the exact time. */
function DrawerBody({ event, now }: { event: AuditEventDetail; now: string }) {
  const { t } = useTranslation("audit");
  const rows = presentDetails(event.action, event.details);
  const relative = relativeTimeText(event.createdAt, useNow(now), useTimeSetting().language);
  return (
    <dl className="mt-6 space-y-4 text-sm">
      <div>
        <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.time")}</dt>
        <dd data-testid="audit-drawer-time">
          <LocalTime iso={event.createdAt} />
          {relative ? <span className="text-slate-500">{` · ${relative}`}</span> : null}
        </dd>
      </div>
      <div>
        <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("page.actor")}</dt>
        {/* The kind as a label before the name, as the target's is (not "(User)" on a line of its
            own under the address); the system actor's name already says "System". */}
        <dd data-testid="audit-drawer-actor">
          {event.actorKind === "system" ? null : (
            <span className="audit-kind">{t(`actorKinds.${event.actorKind}`, { defaultValue: event.actorKind })}</span>
          )}{" "}
          {nameView(t, event.actor, event.actorId, event.actorKind)}
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
            <DetailValueView field={row.field} value={row.value} person={event.people[row.field]} />
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
          {t("page.eventId")}: <code className="break-all">{event.id}</code> <CopyButton value={event.id} label={t("copyId.eventId")} />
        </p>
        <p>
          {t("page.actorId")}: <code className="break-all">{event.actorId}</code>{" "}
          <CopyButton value={event.actorId} label={t("copyId.actorId")} />
        </p>
        <p>
          {t("page.targetId")}: <code className="break-all">{event.targetId}</code>{" "}
          <CopyButton value={event.targetId} label={t("copyId.targetId")} />
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
export function EventDrawer({
  eventId,
  initial,
  detailQuery,
  closeHref,
  now,
}: {
  eventId: string;
  initial: AuditEventDetail | null;
  detailQuery: AuditDetailQuery;
  closeHref: string;
  now: string;
}) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  const navigate = useNavigate();
  const query = useQuery({ ...detailQuery(eventId), initialData: initial?.id === eventId ? initial : undefined });
  const event = query.data;
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : navigate(closeHref, { preventScrollReset: true }))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
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
          {event ? <DrawerBody event={event} now={now} /> : null}
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
export function StaticEventDrawer({ event, closeHref, now }: { event: AuditEventDetail; closeHref: string; now: string }) {
  const { t } = useTranslation("audit");
  const actionLabel = useActionLabel();
  return (
    <div className="fixed inset-0 z-30 flex justify-end bg-black/40" data-testid="audit-drawer">
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
        <DrawerBody event={event} now={now} />
      </aside>
    </div>
  );
}

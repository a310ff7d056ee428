// The organization's streams (at most 10): one row each with what people scan for (name, state,
// kind, destination, last delivery, lag); the name opens the stream's delivery page. While the
// organization cannot stream (plan or billing), rows that would deliver say "Not delivering".
import { Link } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { Card, badgeClass, buttonClass } from "~/components/ui";
import { localTime, useTimeSetting } from "~/components/local-time";
import type { StreamView } from "~/audit-streams/streams.server";
import { CREATE_STREAM_NAME_ID, lagParts, shownState, stateTone, streamPagePath, type StreamingBlocker } from "./stream-page";

export function useLagText() {
  const { t } = useTranslation("auditStreams");
  return (seconds: number | null) => {
    if (seconds === null || seconds <= 0) return t("list.upToDate");
    const { unit, count } = lagParts(seconds);
    return t(`lag.${unit}`, { count });
  };
}

function EmptyList({ canCreate }: { canCreate: boolean }) {
  const { t } = useTranslation("auditStreams");
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-6 py-8 text-center"
      data-testid="streams-empty"
    >
      <p className="text-sm font-medium text-slate-900">{t("list.emptyTitle")}</p>
      {canCreate ? (
        <>
          <p className="max-w-sm text-sm text-slate-500">{t("list.empty")}</p>
          <a href={`#${CREATE_STREAM_NAME_ID}`} className={buttonClass("primary", "mt-2")}>
            {t("create.heading")}
          </a>
        </>
      ) : null}
    </div>
  );
}

export function StreamList({
  streams,
  blocker,
  limit,
  canCreate,
}: {
  streams: StreamView[];
  blocker: StreamingBlocker;
  limit: number;
  canCreate: boolean;
}) {
  const { t } = useTranslation("auditStreams");
  const time = useTimeSetting();
  const lagText = useLagText();
  return (
    <Card title={t("list.heading")} description={t("list.count", { count: streams.length, limit })}>
      {streams.length === 0 ? (
        <EmptyList canCreate={canCreate} />
      ) : (
        <ul className="-my-3 divide-y divide-slate-100" data-testid="streams">
          {streams.map((stream) => {
            const state = shownState(stream.state, blocker);
            return (
              <li key={stream.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-4" data-stream-id={stream.id}>
                <div className="min-w-0 flex-1 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link
                      to={streamPagePath(stream.id)}
                      className="font-medium text-brand-700 [overflow-wrap:anywhere] hover:underline"
                      aria-label={t("list.open", { name: stream.name })}
                    >
                      {stream.name}
                    </Link>
                    <span className={badgeClass(stateTone(state))} data-testid="stream-state">
                      {t(`states.${state}`)}
                    </span>
                  </div>
                  <p className="flex flex-wrap gap-x-3 text-sm text-slate-500">
                    <span>{t(`kinds.${stream.kind}`)}</span>
                    <code className="font-mono text-xs break-all" data-testid="stream-destination">
                      {stream.destination}
                    </code>
                  </p>
                </div>
                <dl className="grid shrink-0 grid-cols-2 gap-x-6 gap-y-0.5 text-sm sm:text-right">
                  <dt className="text-slate-500">{t("list.lastDelivery")}</dt>
                  <dt className="text-slate-500">{t("list.lag")}</dt>
                  <dd className="text-slate-900">
                    {stream.lastDeliveredAt ? localTime(new Date(stream.lastDeliveredAt).toISOString(), time) : t("list.never")}
                  </dd>
                  <dd className="text-slate-900" data-testid="stream-lag">
                    {lagText(stream.lagSeconds)}
                  </dd>
                </dl>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

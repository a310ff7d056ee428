// A stream's delivery at a glance: its state, where it sends, the last success, the lag (age of the
// oldest event not yet delivered), when the next attempt is due while failing, and the recent
// failures with the receiver's status code and the reason in words.
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Card, badgeClass } from "~/components/ui";
import { localTime, useTimeSetting } from "~/components/local-time";
import type { StreamDetail } from "~/audit-streams/streams.server";
import { useLagText } from "./stream-list";
import { shownState, stateTone, type StreamingBlocker } from "./stream-page";

const iso = (value: Date | string) => new Date(value).toISOString();

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="space-y-0.5">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="text-sm text-slate-900 [overflow-wrap:anywhere]" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function StreamDelivery({ stream, blocker }: { stream: StreamDetail; blocker: StreamingBlocker }) {
  const { t } = useTranslation("auditStreams");
  const time = useTimeSetting();
  const lagText = useLagText();
  const state = shownState(stream.state, blocker);
  return (
    <Card title={t("delivery.heading")}>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Fact label={t("delivery.state")}>
          <span className={badgeClass(stateTone(state))} data-testid="stream-state">
            {t(`states.${state}`)}
          </span>
        </Fact>
        <Fact label={t("delivery.destination")}>
          {t(`kinds.${stream.kind}`)} · <code className="font-mono text-xs">{stream.destination}</code>
        </Fact>
        <Fact label={t("delivery.lastSuccess")} testId="stream-last-success">
          {stream.lastDeliveredAt ? localTime(iso(stream.lastDeliveredAt), time) : t("list.never")}
        </Fact>
        <Fact label={t("delivery.lag")} testId="stream-lag">
          {lagText(stream.lagSeconds)}
        </Fact>
        {stream.failingSince ? <Fact label={t("delivery.failingSince")}>{localTime(iso(stream.failingSince), time)}</Fact> : null}
        {stream.state !== "paused" && stream.failingSince && stream.nextAttemptAt ? (
          <Fact label={t("delivery.nextAttempt")} testId="stream-next-attempt">
            {localTime(iso(stream.nextAttemptAt), time)}
          </Fact>
        ) : null}
        {stream.deliverFrom ? <Fact label={t("delivery.deliverFrom")}>{localTime(iso(stream.deliverFrom), time)}</Fact> : null}
        <Fact label={t("delivery.created")}>{localTime(iso(stream.createdAt), time)}</Fact>
      </dl>
      <p className="mt-2 text-xs text-slate-500">{t("delivery.lagHint")}</p>
      <h3 className="mt-6 text-sm font-semibold text-slate-900">{t("delivery.failuresHeading")}</h3>
      {stream.recentFailures.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500" data-testid="stream-failures-empty">
          {t("delivery.failuresEmpty")}
        </p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="stream-failures">
            <thead className="text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("delivery.failureAt")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("delivery.failureStatus")}
                </th>
                <th scope="col" className="py-2 font-medium">
                  {t("delivery.failureReason")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {stream.recentFailures.map((failure, index) => (
                <tr key={`${iso(failure.at)}-${index}`} className="align-top">
                  <td className="py-2 pr-4 whitespace-nowrap">{localTime(iso(failure.at), time)}</td>
                  <td className="py-2 pr-4 font-mono">{failure.status ?? t("delivery.noStatus")}</td>
                  <td className="py-2">
                    <span className="block text-slate-900">{t(`failures.${failure.failure}`)}</span>
                    <code className="block font-mono text-xs text-slate-500 [overflow-wrap:anywhere]">{failure.detail}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

// The integrity page's first card: whether the log is sealed, with which keys, and its newest digest.
import { localTime, useTimeSetting } from "~/components/local-time";
import { Badge, Card } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import type { IntegrityOverview } from "~/audit-integrity/overview.server";

export function SealingCard({ overview }: { overview: IntegrityOverview }) {
  const { t } = useTranslation("auditIntegrity");
  const time = useTimeSetting();
  const { newest } = overview;
  const state = !overview.signing && !newest ? "noKey" : newest ? "sealed" : "noDigest";
  return (
    <Card title={t("sealing.heading")}>
      <div className="space-y-4 text-sm" data-testid="sealing-card" data-state={state}>
        <p className="text-slate-700">{t(`sealing.${state}`)}</p>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-500">{t("sealing.keys")}</dt>
          <dd>
            <ul className="space-y-1">
              {overview.keys.map((key) => (
                <li key={key.id} className="flex flex-wrap items-center gap-2">
                  <code className="font-mono break-all" data-testid="signing-key-id">
                    {key.id}
                  </code>
                  <Badge tone={key.status === "current" ? "green" : "slate"}>
                    {t(key.status === "current" ? "sealing.keyCurrent" : "sealing.keyRetired")}
                  </Badge>
                </li>
              ))}
            </ul>
            {overview.keys.length > 0 ? (
              <a className="mt-1 inline-block font-medium text-slate-700 underline" href="/.well-known/audit-log-keys.json">
                {t("sealing.publicKeys")}
              </a>
            ) : (
              "—"
            )}
          </dd>
          <dt className="font-medium text-slate-500">{t("sealing.newest")}</dt>
          <dd data-testid="newest-digest">
            {newest ? (
              <>
                {t("sealing.newestValue", { sequence: newest.sequence, count: newest.eventCount })} {localTime(newest.periodEnd, time)}
              </>
            ) : (
              "—"
            )}
          </dd>
          <dt className="font-medium text-slate-500">{t("sealing.digests")}</dt>
          <dd>{overview.digestCount}</dd>
        </dl>
      </div>
    </Card>
  );
}

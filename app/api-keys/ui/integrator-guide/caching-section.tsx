// Advice on caching answers: the plain consequence first (a cached answer outlives a revocation),
// then what keeps that window short.
import { Alert, Card } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";

const POINTS = ["shortPositive", "cacheKey", "negatives", "noErrors", "sensitive", "local"] as const;

export function CachingSection() {
  const { t } = useTranslation("integrators");
  return (
    <Card id="caching" title={t("caching.heading")}>
      <div className="space-y-4 text-sm">
        <Alert tone="warning">{t("caching.warning")}</Alert>
        <p className="text-slate-700">{t("caching.recommendation")}</p>
        <ul className="list-disc space-y-2 pl-5 text-slate-700 marker:text-slate-400">
          {POINTS.map((point) => (
            <li key={point}>{t(`caching.points.${point}`)}</li>
          ))}
        </ul>
      </div>
    </Card>
  );
}

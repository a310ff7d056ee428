// The audit page's chart: events per day as bars, server-rendered SVG, one labelled bar per day,
// the busiest one marked; the summary says the same in words (and is all there is when quiet).
import { useTranslation } from "~/i18n/use-translation";
import { useFormats } from "~/components/use-formats";
import type { ActivityDay } from "~/audit/activity.server";

/** Hundredths of the chart's 48 units are finer than any screen shows; more digits are only bytes. */
const hundredths = (value: number) => Math.round(value * 100) / 100;

export function ActivityChart({ days }: { days: ActivityDay[] }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return null;
  const total = days.reduce((sum, d) => sum + d.events, 0);
  const peak = days.reduce((best, d) => (d.events > best.events ? d : best), first);
  const dayLabel = (day: string) => formats.date(`${day}T00:00:00.000Z`);
  const range = { first: dayLabel(first.day), last: dayLabel(last.day) };
  const summary =
    total === 0
      ? t("page.chart.summaryEmpty", range)
      : t("page.chart.summary", { ...range, total: formats.number(total), peakDay: dayLabel(peak.day), peak: formats.number(peak.events) });
  const height = 48;
  const barWidth = 10;
  if (total === 0) {
    return (
      <p className="text-sm text-slate-600" data-testid="audit-activity">
        {summary}
      </p>
    );
  }
  return (
    <figure className="space-y-2" data-testid="audit-activity">
      <figcaption className="text-sm text-slate-600">{summary}</figcaption>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${days.length * barWidth} ${height}`}
        preserveAspectRatio="none"
        className="h-16 w-full"
      >
        {days.map((d, i) => {
          const h = Math.max(d.events > 0 ? 1.5 : 0, (d.events / peak.events) * height);
          return (
            <rect
              key={d.day}
              x={i * barWidth + 1}
              y={hundredths(height - h)}
              width={barWidth - 2}
              height={hundredths(h)}
              className={d === peak ? "fill-brand-600" : "fill-brand-300"}
            >
              <title>{t("page.chart.bar", { day: dayLabel(d.day), count: d.events, events: formats.number(d.events) })}</title>
            </rect>
          );
        })}
      </svg>
      <div className="flex justify-between text-xs text-slate-500" aria-hidden="true">
        <span>{range.first}</span>
        <span>{range.last}</span>
      </div>
    </figure>
  );
}

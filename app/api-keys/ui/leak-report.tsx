// A key reported leaked by a secret scanner (decision 0060): a red badge beside its state, and a
// line saying where and when its secret was found, so owners see it where they act (rotate,
// revoke). Plain functions, as the lists render one row per key. The URL comes from GitHub: it is
// a link only when it is an https:// or http:// URL, never anything a browser would run.
import { badgeClass } from "~/components/ui";
import type { Formats } from "~/components/use-formats";
import type { ReportedLeak } from "~/api-keys/leak-reports.server";
import type { KeyListText } from "./key-list-text";

function isWebUrl(url: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(url);
}

export function leakBadge(leak: ReportedLeak | null, text: KeyListText) {
  if (!leak) return null;
  return (
    <span className={badgeClass("red", "key-row-state")} data-testid="key-leaked">
      {text.leak.badge}
    </span>
  );
}

/** `advice`: what to do now (rotate or revoke; nothing for a revoked key). */
export function leakFacts(leak: ReportedLeak | null, text: KeyListText, formats: Formats, advice: string) {
  if (!leak) return null;
  const { t } = text;
  return (
    <p className="key-row-leak" data-testid="key-leak-report">
      {t("leak.found", { date: formats.dateTime(leak.reportedAt) })}{" "}
      {isWebUrl(leak.url) ? (
        <a href={leak.url} rel="noopener noreferrer nofollow" target="_blank" className="key-row-leak-url">
          {leak.url}
        </a>
      ) : (
        <span className="key-row-leak-url">{leak.url}</span>
      )}
      {leak.source ? ` (${leak.source})` : null}
      {leak.count > 1 ? ` · ${t("leak.count", { count: leak.count })}` : null}
      {leak.url || leak.source ? ". " : " "}
      {advice}
    </p>
  );
}

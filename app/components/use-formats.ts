// Dates as the reader's language writes them, always in UTC (the audit log and key expiry are
// UTC days). One place builds the Intl formatters, once per language.
import { useMemo } from "react";
import { useTranslation } from "~/i18n/use-translation";

/** Remembered answers per formatter: a page formats the same instants on every view (a key's
 * creation, the audit rows), and Intl's format costs microseconds a call. Bounded; cleared whole. */
const MAX_REMEMBERED = 5_000;

function remembering(format: Intl.DateTimeFormat): (iso: string) => string {
  const remembered = new Map<string, string>();
  return (iso) => {
    let text = remembered.get(iso);
    if (text === undefined) {
      text = format.format(new Date(iso));
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(iso, text);
    }
    return text;
  };
}

function formattersFor(language: string) {
  const date = remembering(new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }));
  const dateTime = remembering(new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }));
  const dateTimeSeconds = remembering(new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }));
  const time = new Intl.DateTimeFormat(language, { timeStyle: "short", timeZone: "UTC" });
  const number = new Intl.NumberFormat(language);
  return {
    /** "1,234" / "1.234" */
    number: (value: number) => number.format(value),
    /** "22 Nov 2026" */
    date,
    /** "22 Nov 2026, 14:05" */
    dateTime,
    /** "22 Nov 2026, 14:05:09" */
    dateTimeSeconds,
    /** "14:05" */
    time: (iso: string) => time.format(new Date(iso)),
  };
}

export type Formats = ReturnType<typeof formattersFor>;

/** Made once per language per process: an Intl.DateTimeFormat takes longer to build than a table
 * row takes to render, and the server would otherwise build four for every component, every request. */
const byLanguage = new Map<string, Formats>();

export function formatsFor(language: string): Formats {
  let formats = byLanguage.get(language);
  if (!formats) {
    formats = formattersFor(language);
    // Languages are the supported ones; the bound only guards against that ever changing.
    if (byLanguage.size < 16) byLanguage.set(language, formats);
  }
  return formats;
}

export function useFormats(): Formats {
  const { i18n } = useTranslation();
  return useMemo(() => formatsFor(i18n.language), [i18n.language]);
}

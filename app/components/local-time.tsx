// An instant in the reader's own time zone, with the zone stated ("22 Nov 2026, 15:05:09 CET"),
// and UTC on hover. The server does not know the reader's zone, so the server-rendered page (and a
// browser without JavaScript) shows UTC, stated as such; after hydration the browser's zone is used.
import { useTranslation } from "~/i18n/use-translation";
import { useFormats, type Formats } from "./use-formats";
import { useHydrated } from "./use-hydrated";

const localFormats = new Map<string, Intl.DateTimeFormat>();

function localFormat(language: string): Intl.DateTimeFormat {
  let found = localFormats.get(language);
  if (!found) {
    found = new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "long" });
    localFormats.set(language, found);
  }
  return found;
}

/** What LocalTime needs to know about the page, asked once by a list of many times. */
export interface TimeSetting {
  language: string;
  formats: Formats;
  hydrated: boolean;
}

export function useTimeSetting(): TimeSetting {
  const { i18n } = useTranslation();
  return { language: i18n.language, formats: useFormats(), hydrated: useHydrated() };
}

/** The exact instant as text: in the reader's zone once hydrated, in UTC (stated) before. */
export function exactTimeText(iso: string, { language, formats, hydrated }: TimeSetting): string {
  return hydrated ? localFormat(language).format(new Date(iso)) : `${formats.dateTimeSeconds(iso)} UTC`;
}

/** LocalTime's element without hooks of its own, for lists (an audit page has 50). */
export function localTime(iso: string, setting: TimeSetting, className?: string) {
  const utc = `${setting.formats.dateTimeSeconds(iso)} UTC`;
  return (
    // Before hydration the text already is the UTC time; the hover repeats it only after.
    <time dateTime={iso} title={setting.hydrated ? utc : undefined} className={className}>
      {setting.hydrated ? exactTimeText(iso, setting) : utc}
    </time>
  );
}

export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  return localTime(iso, useTimeSetting(), className);
}

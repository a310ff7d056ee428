// An instant in the reader's own time zone, with the zone stated ("22 Nov 2026, 15:05:09 CET"),
// and UTC on hover. The server does not know the reader's zone, so the server-rendered page (and a
// browser without JavaScript) shows UTC, stated as such; after hydration the browser's zone is used.
import { useTranslation } from "~/i18n/use-translation";
import { useFormats } from "./use-formats";
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

export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const { i18n } = useTranslation();
  const formats = useFormats();
  const hydrated = useHydrated();
  const utc = `${formats.dateTimeSeconds(iso)} UTC`;
  return (
    // Before hydration the text already is the UTC time; the hover repeats it only after.
    <time dateTime={iso} title={hydrated ? utc : undefined} className={className}>
      {hydrated ? localFormat(i18n.language).format(new Date(iso)) : utc}
    </time>
  );
}

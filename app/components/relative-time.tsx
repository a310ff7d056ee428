// "3 minutes ago" in the reader's language (Intl.RelativeTimeFormat), with the exact time on hover.
// Counted from a `now` the page's loader sends: the server renders with it and so does the
// browser's first render (hydration), so both write the same words; then the browser counts from
// its own clock, moving on every half minute. Older than 30 days, the date says more than "2
// months ago" would (GitHub's rule); the exact time is on hover either way.
import { useSyncExternalStore } from "react";
import { exactTimeText, type TimeSetting } from "./local-time";

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached<T>(map: Map<string, T>, language: string, make: () => T): T {
  let found = map.get(language);
  if (!found) {
    found = make();
    // Languages are the supported ones; the bound only guards against that ever changing.
    if (map.size < 16) map.set(language, found);
  }
  return found;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** From here on the date is shown instead. */
const RELATIVE_DAYS = 30;

/** "just now", "3 minutes ago", "yesterday", "vor 5 Stunden"; null past RELATIVE_DAYS. */
export function relativeTimeText(iso: string, now: number, language: string): string | null {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const distance = Math.abs(seconds);
  if (distance >= RELATIVE_DAYS * DAY) return null;
  // numeric "auto": "now", "yesterday", "gestern", as people say them.
  const format = cached(relativeFormats, language, () => new Intl.RelativeTimeFormat(language, { numeric: "auto" }));
  if (distance < 45) return format.format(0, "second");
  if (distance < 45 * MINUTE) return format.format(Math.round(seconds / MINUTE), "minute");
  if (distance < 22 * HOUR) return format.format(Math.round(seconds / HOUR), "hour");
  return format.format(Math.round(seconds / DAY), "day");
}

// One clock for every relative time on the page, ticking only while one is shown.
const TICK_MS = 30_000;
let clock = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  if (listeners.size === 0) {
    clock = Date.now();
    timer = setInterval(() => {
      clock = Date.now();
      for (const notify of listeners) notify();
    }, TICK_MS);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

/** The instant relative times count from: the loader's `now` on the server and in hydration,
 * the browser's clock after. */
export function useNow(serverNow: string): number {
  const client = useSyncExternalStore(
    subscribe,
    () => clock,
    () => null,
  );
  return client ?? Date.parse(serverNow);
}

/** An instant as a list shows it: relative (or the date, when old), the exact time on hover. */
export function relativeTime(iso: string, now: number, setting: TimeSetting, className?: string) {
  // The date in the reader's zone once hydrated; in UTC before, as the server has no other.
  const localDate = () => cached(dateFormats, setting.language, () => new Intl.DateTimeFormat(setting.language, { dateStyle: "medium" }));
  const text =
    relativeTimeText(iso, now, setting.language) ?? (setting.hydrated ? localDate().format(new Date(iso)) : setting.formats.date(iso));
  return (
    <time dateTime={iso} title={exactTimeText(iso, setting)} className={className}>
      {text}
    </time>
  );
}

// The one range of dates we accept from outside (filters, cursors, key expiry). PostgreSQL knows no
// year 0 and JavaScript dates reach far beyond what a timestamptz column holds, so an unbounded
// year is a 500 waiting to happen. Nothing in KeyLedger predates 2000, and 9999 keeps every date
// four digits long. Client-safe.

const MIN_DATE = new Date("2000-01-01T00:00:00.000Z");
/** The last accepted instant: the end of 9999-12-31 (UTC). */
const MAX_DATE = new Date("9999-12-31T23:59:59.999Z");

export function isDateInRange(date: Date): boolean {
  const time = date.getTime();
  return !Number.isNaN(time) && time >= MIN_DATE.getTime() && time <= MAX_DATE.getTime();
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first instant of a calendar day "YYYY-MM-DD" (UTC): where a "from" filter starts. */
export const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** The first instant after a calendar day (UTC): where a "to" filter, inclusive, stops. */
export const endOfDay = (day: string) => new Date(startOfDay(day).getTime() + DAY_MS);

/** The UTC calendar day of an instant, "YYYY-MM-DD". */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A calendar day "YYYY-MM-DD" (UTC) as the Date of its first instant, or a reason it is not one:
 * "format" (not YYYY-MM-DD or no such day, e.g. 2027-02-31) or "range" (outside 2000-9999).
 */
export function parseCalendarDay(value: string): { ok: true; date: Date } | { ok: false; reason: "format" | "range" } {
  if (!DAY_PATTERN.test(value)) return { ok: false, reason: "format" };
  const date = startOfDay(value);
  // Date rolls 2027-02-31 over into March; a real day reads back unchanged.
  if (Number.isNaN(date.getTime()) || isoDay(date) !== value) {
    const year = Number(value.slice(0, 4));
    return { ok: false, reason: year < 2000 || year > 9999 ? "range" : "format" };
  }
  return isDateInRange(date) ? { ok: true, date } : { ok: false, reason: "range" };
}

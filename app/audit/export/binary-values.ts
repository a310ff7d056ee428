// PostgreSQL's binary uuid and timestamptz as the export writes them, read straight from the
// COPY's bytes: the two columns that are not text (export-row.ts reads the others).

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** The uuid whose 16 bytes start at `at`, as its usual text. */
export function uuidText(buf: Buffer, at: number): string {
  let hex = "";
  for (let k = 0; k < 16; k++) {
    hex += HEX[buf[at + k]!]!;
    if (k === 3 || k === 5 || k === 7 || k === 9) hex += "-";
  }
  return hex;
}

/** PostgreSQL's timestamps count microseconds from 2000-01-01 UTC. */
const POSTGRES_EPOCH_MS = 946_684_800_000;
const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/** The day last written by isoTime and its text (`2026-11-23T`). Shared by concurrent exports,
 * which only makes it miss more often: it is checked on every row. */
let lastDay = NaN;
let lastDayText = "";

/**
 * The timestamp whose 8 bytes start at `at`, in ISO 8601 UTC with milliseconds, as the view's API
 * gives it (`2026-11-23T09:15:02.123Z`). Events come in time order, so neighbours mostly share
 * the day: its text is remembered and the time of day written from tables (toISOString per row
 * was a fifth of the export's CPU).
 */
export function isoTime(buf: Buffer, at: number): string {
  // The microseconds are high * 2^32 + low, past 2^53 after the year 2285; 2^32 = 4,294,967 *
  // 1000 + 296, so the milliseconds come out exact from parts that stay far below it.
  const high = buf.readInt32BE(at);
  const ms = POSTGRES_EPOCH_MS + high * 4_294_967 + Math.floor((high * 296 + buf.readUInt32BE(at + 4)) / 1000);
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(day * DAY_MS).toISOString().slice(0, -13);
  }
  let rest = ms - day * DAY_MS;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${lastDayText}${TWO_DIGITS[hours]!}:${TWO_DIGITS[minutes]!}:${TWO_DIGITS[seconds]!}.${THREE_DIGITS[millis]!}Z`;
}

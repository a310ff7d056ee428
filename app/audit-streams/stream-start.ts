// Where a stream starts (or starts again): "from now", or "replay from a date" (docs/decisions/
// 0052-audit-streams.md). Pure rules, shared by the procedures, the page's form and the service.
import { z } from "zod";
import { errorKey } from "~/lib/error-key";

/** A calendar day, UTC: `YYYY-MM-DD`, a real date, from 2000 to today. */
export const replayDateSchema = z
  .string()
  .max(10, errorKey("auditStreamChange.startDateInvalid"))
  .refine((value) => replayFrom(value) !== null, errorKey("auditStreamChange.startDateInvalid"));

export const streamStartSchema = z.discriminatedUnion(
  "from",
  [z.object({ from: z.literal("now") }).strict(), z.object({ from: z.literal("date"), date: replayDateSchema }).strict()],
  { error: errorKey("auditStreamChange.startDateInvalid") },
);

export type StreamStart = { from: "now" } | { from: "date"; date: string /* YYYY-MM-DD, UTC day start */ };

/** The instant a replay date starts at (UTC midnight), or null for text that is no such day, a
 * day before 2000 or a day after today (nothing was recorded then; a typo should not wait years). */
export function replayFrom(date: string, now = new Date()): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const start = new Date(`${date}T00:00:00.000Z`);
  if (Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== date) return null;
  if (start.getUTCFullYear() < 2000 || start.getTime() > now.getTime()) return null;
  return start;
}

/** How a start is written in audit details: "now" or the day. */
export function startLabel(start: StreamStart): string {
  return start.from === "now" ? "now" : start.date;
}

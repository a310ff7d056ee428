// The audit log's URL parameters, parsed once by one schema for the list, the actor filter and
// (later) the export: action, actorId, from, to (YYYY-MM-DD, UTC), cursor, event.
// Bad values are a clear 400, never a 500. Client-safe: the page's filter form uses it too.
import { z } from "zod";
import { isDateInRange, parseCalendarDay } from "~/lib/dates";
import { UUID_PATTERN } from "~/lib/ids";

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : typeof v === "string" ? v.trim() : v), schema.optional());

/** A calendar day within the accepted range (app/lib/dates.ts); kept as the string the URL shows. */
const day = z.string().superRefine((value, ctx) => {
  const parsed = parseCalendarDay(value);
  if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.reason === "range" ? "auditLog.dateOutOfRange" : "auditLog.badDate" });
});

export const auditFiltersSchema = z
  .object({
    action: optional(z.string().max(100, "auditLog.badAction").regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, "auditLog.badAction")),
    actorId: optional(z.string().max(128, "auditLog.badActor").regex(/^[A-Za-z0-9._:@-]+$/, "auditLog.badActor")),
    from: optional(day),
    to: optional(day),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { path: ["to"], message: "auditLog.badRange" });

export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** Position after the last row of a page: (createdAt, id) of that row. Opaque to clients. */
export interface AuditCursor {
  createdAt: Date;
  id: string;
}


function base64UrlEncode(text: string): string {
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function base64UrlDecode(text: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  try {
    return atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return null;
  }
}

export function encodeCursor(cursor: AuditCursor): string {
  return base64UrlEncode(`${cursor.createdAt.toISOString()}|${cursor.id}`);
}

export function decodeCursor(value: string): AuditCursor | null {
  const decoded = base64UrlDecode(value);
  const [iso, id, ...rest] = decoded?.split("|") ?? [];
  if (!iso || !id || rest.length || !UUID_PATTERN.test(id) || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(iso)) return null;
  const createdAt = new Date(iso);
  return isDateInRange(createdAt) ? { createdAt, id } : null;
}

export const auditQuerySchema = z.object({
  filters: auditFiltersSchema,
  cursor: optional(z.string().max(200, "auditLog.badCursor")).transform((v, ctx) => {
    if (v === undefined) return undefined;
    const cursor = decodeCursor(v);
    if (!cursor) ctx.addIssue({ code: "custom", message: "auditLog.badCursor" });
    return cursor ?? undefined;
  }),
  event: optional(z.string().regex(UUID_PATTERN, "auditLog.badEvent")),
});

export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The filters as URL parameters (for links that keep them). */
export function filtersToSearchParams(filters: AuditFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of ["action", "actorId", "from", "to"] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  return params;
}

// The audit log's query contract, in one place: the filters and the cursor, as one zod schema.
// The page parses its search params with it, the auditLog.* procedures take it (plus
// organizationId) as input, and the export (GET …/audit-log/export) reads the same filters. Dates are turned into instants here, once.
// The filter form and every link that keeps the filters derive from AUDIT_FILTERS: adding a
// filter is one entry here plus its label (and its condition in app/audit/query.server.ts).
// Bad values are a clear 400, never a 500. Client-safe.
import { href } from "react-router";
import { z } from "zod";
import { endOfDay, parseCalendarDay, startOfDay } from "~/lib/dates";
import { isErrorKey } from "~/i18n/error-keys";
import type { KeyOf } from "~/i18n/keys";
import { DomainError } from "~/lib/domain-error";
import { errorKey } from "~/lib/error-key";
import { isUuid } from "~/lib/ids";
import { optionalInput } from "~/lib/text";

/** A calendar day within the accepted range (app/lib/dates.ts); kept as the string the URL shows. */
const day = z.string().superRefine((value, ctx) => {
  const parsed = parseCalendarDay(value);
  if (!parsed.ok)
    ctx.addIssue({ code: "custom", message: errorKey(parsed.reason === "range" ? "auditLog.dateOutOfRange" : "auditLog.badDate") });
});

/** The filters, in the order the form shows them, with the control that edits each and its label key (`audit:`). */
export const AUDIT_FILTERS = {
  action: {
    schema: z
      .string()
      .max(100, errorKey("auditLog.badAction"))
      .regex(/^[a-z0-9_]+(\.[a-z0-9_]+)*$/, errorKey("auditLog.badAction")),
    control: "action",
    label: "page.action",
  },
  actorId: {
    schema: z
      .string()
      .max(128, errorKey("auditLog.badActor"))
      .regex(/^[A-Za-z0-9._:@-]+$/, errorKey("auditLog.badActor")),
    control: "actor",
    label: "page.actor",
  },
  from: { schema: day, control: "date", label: "page.from" },
  to: { schema: day, control: "date", label: "page.to" },
  /** One target's history (the keys page links each key here). Shown as a removable chip. */
  targetId: {
    schema: z
      .string()
      .max(128, errorKey("auditLog.badTarget"))
      .regex(/^[A-Za-z0-9._:@-]+$/, errorKey("auditLog.badTarget")),
    control: "target",
    label: "page.target",
  },
} as const satisfies Record<string, { schema: z.ZodType; control: string; label: KeyOf<"audit"> }>;

export type AuditFilterName = keyof typeof AUDIT_FILTERS;
export const AUDIT_FILTER_NAMES = Object.keys(AUDIT_FILTERS) as AuditFilterName[];
export type AuditFilters = Partial<Record<AuditFilterName, string>>;

/** A cursor as it arrives: opaque, signed by the server (app/audit/cursor.server.ts checks it). */
const cursorField = optionalInput(
  z
    .string()
    .max(200, errorKey("auditLog.badCursor"))
    .regex(/^[A-Za-z0-9_.-]+$/, errorKey("auditLog.badCursor")),
);

/** An event id must look like one: "" or "   " must never mean "any event". */
export const auditEventIdSchema = z.string().refine(isUuid, errorKey("auditLog.badEvent"));

const filterFields = Object.fromEntries(AUDIT_FILTER_NAMES.map((name) => [name, optionalInput(AUDIT_FILTERS[name].schema)])) as {
  [K in AuditFilterName]: ReturnType<typeof optionalInput<(typeof AUDIT_FILTERS)[K]["schema"]>>;
};

/** The parsed query: the filters as the URL shows them, the instants they mean, the position. */
export interface AuditQuery {
  filters: AuditFilters;
  /** Events at or after this instant (the start of `from`, UTC). */
  createdFrom?: Date;
  /** Events before this instant (the end of `to`, UTC). */
  createdBefore?: Date;
  /** Where the page starts, as the client sent it (verified when the page is read). */
  cursor?: string;
}

const coreQuery = z.object({ ...filterFields, cursor: cursorField });
type CoreQuery = z.output<typeof coreQuery>;

function toAuditQuery(q: CoreQuery): AuditQuery {
  const filters: AuditFilters = {};
  for (const name of AUDIT_FILTER_NAMES) if (q[name] !== undefined) filters[name] = q[name];
  return {
    filters,
    ...(q.from ? { createdFrom: startOfDay(q.from) } : {}),
    ...(q.to ? { createdBefore: endOfDay(q.to) } : {}),
    ...(q.cursor ? { cursor: q.cursor } : {}),
  };
}

/**
 * How many events the page shows at once, as its `perPage` parameter offers (not a filter: a
 * cursor stays valid whichever is chosen). 25 when left out: one screen and a bit on a laptop, and
 * about a third less work per page view than 50 (docs/decisions/0024-audit-view-at-scale.md).
 */
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;
export type AuditPageSize = (typeof AUDIT_PAGE_SIZES)[number];
export const DEFAULT_AUDIT_PAGE_SIZE: AuditPageSize = 25;

const perPageField = optionalInput(
  z
    .string()
    .refine((value) => (AUDIT_PAGE_SIZES as readonly number[]).some((size) => String(size) === value), errorKey("auditLog.badPerPage"))
    .transform((value) => Number(value) as AuditPageSize),
);

/** The page's search params, plus `event` (the open detail) and `perPage`. */
const auditPageQuerySchema = coreQuery
  .extend({ event: optionalInput(auditEventIdSchema), perPage: perPageField })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ["to"], message: errorKey("auditLog.badRange") })
  .transform(({ event, perPage, ...q }) => ({ ...toAuditQuery(q), event, perPage: perPage ?? DEFAULT_AUDIT_PAGE_SIZE }));

/**
 * auditLog.list and support.auditLog.list input as it arrives: the same members, as bounded
 * strings. The procedures check access first and then parse it with `parseAuditQuery`, like the
 * page, so a caller without access learns nothing from the validation and a bad value gets the
 * same translated message on both.
 */
export const auditListInputSchema = z
  .object({
    organizationId: z.string().max(64),
    ...(Object.fromEntries([...AUDIT_FILTER_NAMES, "cursor"].map((name) => [name, z.string().max(200).optional()])) as Record<
      AuditFilterName | "cursor",
      z.ZodOptional<z.ZodString>
    >),
  })
  .strict();

/** The query from raw values; bad input is a 400 with a translated message. */
export function parseAuditQuery(raw: Record<string, unknown>) {
  const result = auditPageQuerySchema.safeParse(raw);
  if (!result.success) {
    // Our schemas' messages are keys; zod's own wording (none expected here) never reaches i18next.
    const message = result.error.issues[0]?.message ?? "";
    throw new DomainError("BAD_REQUEST", isErrorKey(message) ? message : "badRequest");
  }
  return result.data;
}

/** The audit page's own query parameters. */
const AUDIT_PAGE_PARAMETERS: readonly string[] = [...AUDIT_FILTER_NAMES, "cursor", "event", "perPage"];

/** Parses the page's search params; bad input is a 400 with a translated message. */
export function parseAuditSearchParams(params: URLSearchParams) {
  return parseAuditQuery(Object.fromEntries(AUDIT_PAGE_PARAMETERS.map((key) => [key, params.get(key) ?? undefined])));
}

/**
 * The page's query string without its empty parameters (`?action=&actorId=u1` → `?actorId=u1`),
 * or null when it has none. An empty (or blank) value means "not set" already; the page redirects
 * such a URL to its clean form, so that a plain GET form (no JavaScript) ends on the same address
 * as the form with JavaScript, and what the address bar shows is what applies.
 */
export function withoutEmptyParameters(search: string): string | null {
  const entries = [...new URLSearchParams(search)];
  const kept = entries.filter(([name, value]) => !(AUDIT_PAGE_PARAMETERS.includes(name) && value.trim() === ""));
  if (kept.length === entries.length) return null;
  const params = new URLSearchParams(kept);
  return params.size ? `?${params.toString()}` : "";
}

/** The filters as URL parameters (for links that keep them, and the export link), and the page
 * size when it is not the default one. */
export function filtersToSearchParams(filters: AuditFilters, perPage: AuditPageSize = DEFAULT_AUDIT_PAGE_SIZE): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of AUDIT_FILTER_NAMES) {
    const value = filters[name];
    if (value) params.set(name, value);
  }
  if (perPage !== DEFAULT_AUDIT_PAGE_SIZE) params.set("perPage", String(perPage));
  return params;
}

/** The export's formats: `csv` (RFC 4180) and `json` (NDJSON, one object per line). */
export const AUDIT_EXPORT_FORMATS = ["csv", "json"] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
/** When `format` is left out: CSV, the format a spreadsheet opens (docs/decisions/0025-audit-export.md). */
export const DEFAULT_AUDIT_EXPORT_FORMAT: AuditExportFormat = "csv";
/** What the export reads from its query string; anything else there (e.g. `lng`) is ignored. */
const EXPORT_PARAMETERS = ["format", ...AUDIT_FILTER_NAMES] as const;
/** Far above the longest query the page's link makes (about 500 characters, escaped): a longer one
 * is not ours, and is refused before anything in it is read. */
export const MAX_EXPORT_QUERY_LENGTH = 2048;

export interface AuditExportRequest {
  format: AuditExportFormat;
  query: AuditQuery;
}

/**
 * The export's query string: `format` and the page's filters, by the same rules as the page (the
 * same messages for the same mistakes). Each parameter at most once: `?format=csv&format=json`
 * could mean either, so it means nothing (400). Bad input is a 400 with a translated message.
 */
export function parseAuditExportQuery(search: string): AuditExportRequest {
  if (search.length > MAX_EXPORT_QUERY_LENGTH) throw new DomainError("BAD_REQUEST", errorKey("auditExport.queryTooLong"));
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    throw new DomainError("BAD_REQUEST", errorKey("badRequest"));
  }
  for (const name of EXPORT_PARAMETERS) {
    if (params.getAll(name).length > 1) throw new DomainError("BAD_REQUEST", "auditExport.repeatedParameter", { params: { name } });
  }
  const format = params.get("format")?.trim() || DEFAULT_AUDIT_EXPORT_FORMAT;
  if (!(AUDIT_EXPORT_FORMATS as readonly string[]).includes(format))
    throw new DomainError("BAD_REQUEST", errorKey("auditExport.badFormat"));
  const { filters, createdFrom, createdBefore } = parseAuditQuery(
    Object.fromEntries(AUDIT_FILTER_NAMES.map((name) => [name, params.get(name) ?? undefined])),
  );
  return {
    format: format as AuditExportFormat,
    query: { filters, ...(createdFrom ? { createdFrom } : {}), ...(createdBefore ? { createdBefore } : {}) },
  };
}

/**
 * The filters of an export URL that the audit log page can show, for a refused export's link back
 * to the log it came from: each filter that is valid by itself (the first value of each); a range
 * that ends before it starts is dropped as a whole. Never throws.
 */
export function auditLogFiltersOfExport(search: string): AuditFilters {
  const params = new URLSearchParams(search.length > MAX_EXPORT_QUERY_LENGTH ? "" : search);
  const filters: AuditFilters = {};
  for (const name of AUDIT_FILTER_NAMES) {
    const parsed = optionalInput(AUDIT_FILTERS[name].schema).safeParse(params.get(name) ?? undefined);
    if (parsed.success && parsed.data) filters[name] = parsed.data;
  }
  if (filters.from && filters.to && filters.from > filters.to) {
    delete filters.from;
    delete filters.to;
  }
  return filters;
}

/** The export's URL for these filters: the page's download links carry its current filters. */
export function auditExportHref(organizationId: string, filters: AuditFilters, format: AuditExportFormat): string {
  const params = filtersToSearchParams(filters);
  params.set("format", format);
  params.sort();
  const path = href("/api/organizations/:organizationId/audit-log/export", { organizationId: encodeURIComponent(organizationId) });
  return `${path}?${params.toString()}`;
}

/** Opening or closing the detail drawer changes only `event` in the URL: the page's data stays. */
export function onlyDrawerChanged(currentUrl: URL, nextUrl: URL): boolean {
  if (currentUrl.pathname !== nextUrl.pathname) return false;
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("event");
    params.sort();
    return params.toString();
  };
  return rest(currentUrl) === rest(nextUrl);
}

/**
 * Cache rules for audit queries in the browser (docs/product-rules.md, Authentication rule 8):
 * an audit query nobody shows any more is dropped at once (gcTime 0), so a response loaded in
 * one view (e.g. support) can never be served to another; the tenant and support procedures have
 * keys of their own (their paths) besides.
 */
export const AUDIT_QUERY_CACHE = { gcTime: 0, staleTime: 60_000 } as const;

// The export's two formats as the answer gives them: content type, file name, what precedes the
// rows, and each row's line (csv-writer.ts, ndjson-writer.ts).
import type { AuditExportFormat, AuditFilters } from "~/audit/audit-query";
import { CSV_HEADER, csvLine } from "~/audit/export/csv-writer";
import type { RowLine } from "~/audit/export/export-row";
import { ndjsonLine } from "~/audit/export/ndjson-writer";
import { isoDay } from "~/lib/dates";

export interface ExportFormat {
  contentType: string;
  extension: string;
  /** One row's line, fields in EXPORT_COLUMNS order. */
  line: RowLine;
  /** What precedes the rows, if anything. */
  head: Buffer | null;
  /** The last line of a file cut short by the server's shutdown (docs/contract.md, section 3a). */
  interrupted: Buffer;
}

const INTERRUPTED = "The server shut down before the export finished. This file is incomplete: export again.";

/** Each format's answer, by the query string's `format`. */
export const EXPORT_FORMATS: Record<AuditExportFormat, ExportFormat> = {
  csv: {
    contentType: "text/csv; charset=utf-8; header=present",
    extension: "csv",
    line: csvLine,
    head: CSV_HEADER,
    // One cell, no comma or quote: no spreadsheet reads it as an event, and no id starts with #.
    interrupted: Buffer.from(`# ERROR: ${INTERRUPTED}\r\n`, "utf8"),
  },
  json: {
    contentType: "application/x-ndjson",
    extension: "ndjson",
    line: ndjsonLine,
    head: null,
    interrupted: Buffer.from(`${JSON.stringify({ error: "interrupted", message: INTERRUPTED })}\n`, "utf8"),
  },
};

/** `audit-log-<slug>-<from>-to-<to>.csv`: the filters' date range, up to today when open-ended. */
export function exportFileName(slug: string, filters: AuditFilters, format: AuditExportFormat, now = new Date()): string {
  const range = filters.from ? `${filters.from}-to-${filters.to ?? isoDay(now)}` : `until-${filters.to ?? isoDay(now)}`;
  return `audit-log-${slug}-${range}.${EXPORT_FORMATS[format].extension}`;
}

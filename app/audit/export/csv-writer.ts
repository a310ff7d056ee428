// The CSV file (RFC 4180): a header row of the column names, then one line per row, CRLF, cells
// quoted only where needed and defused where a spreadsheet would read a formula.
import { EXPORT_COLUMNS } from "~/audit/export/columns";
import type { RowLine } from "~/audit/export/export-row";

/** `=`, `+`, `-`, `@`, tab and carriage return: how a spreadsheet formula can begin. */
const startsLikeFormula = (value: string): boolean => {
  const c = value.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
};
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, inner quotes
 * doubled. A value starting with `=`, `+`, `-`, `@`, tab or carriage return gets a leading `'`
 * first, so no spreadsheet runs it as a formula (OWASP, CSV injection). NULL (a deleted record's
 * name) is an empty cell; an empty text is `""`.
 */
export function csvCell(value: string | null): string {
  if (value === null) return "";
  if (value === "") return '""';
  const safe = startsLikeFormula(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The header row: the column names, in their order. */
export const CSV_HEADER = Buffer.from(`${EXPORT_COLUMNS.join(",")}\r\n`, "utf8");

/** One row's line, cells in EXPORT_COLUMNS order. The id and the time hold no quote, comma or
 * line break and go in as written (as the API gives them). */
export const csvLine: RowLine = (row, names) =>
  `${row.id()},${row.createdAt()},${csvCell(row.action())},${csvCell(row.actorKind())},${csvCell(row.actorId())},${csvCell(names.actor(row))},${csvCell(row.targetType())},${csvCell(row.targetId())},${csvCell(names.target(row))},${csvCell(row.details())}\r\n`;

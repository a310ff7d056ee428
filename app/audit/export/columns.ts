// The export's columns: what the file holds and in which order. The SQL selects them in this
// order (sql.server.ts), the rows are read by these names (export-row.ts), and the CSV header is
// this list (csv-writer.ts).

/** The export's columns, in the order the product rules give (docs/product-rules.md, Audit event). */
export const EXPORT_COLUMNS = [
  "id",
  "createdAt",
  "action",
  "actorKind",
  "actorId",
  "actorName",
  "targetType",
  "targetId",
  "targetName",
  "details",
] as const;

export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** Where a column sits in a row of the COPY's output. */
export const columnIndex = (column: ExportColumn): number => EXPORT_COLUMNS.indexOf(column);

// The NDJSON file: one compact JSON object per row, members in EXPORT_COLUMNS order, `\n` after
// each.
import type { RowLine } from "~/audit/export/export-row";

/** One row's line. The id and time need no escaping; details stay an object (jsonb's own text);
 * JSON.stringify(null) is `null` (a deleted record's name). */
export const ndjsonLine: RowLine = (row, names) =>
  `{"id":"${row.id()}","createdAt":"${row.createdAt()}","action":${JSON.stringify(row.action())},"actorKind":${JSON.stringify(row.actorKind())},"actorId":${JSON.stringify(row.actorId())},"actorName":${JSON.stringify(names.actor(row))},"targetType":${JSON.stringify(row.targetType())},"targetId":${JSON.stringify(row.targetId())},"targetName":${JSON.stringify(names.target(row))},"details":${row.details()}}\n`;

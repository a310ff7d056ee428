// Exporting an organization's audit log (docs/product-rules.md, "Export the audit log"): every
// event the filters select, newest first, as CSV (RFC 4180) or NDJSON, streamed from one
// consistent snapshot with constant memory. The file is never stored. This is the export's one
// entry; the route and the tests call it.
//
// PostgreSQL reads, this process writes (docs/decisions/0025-audit-export.md): one `COPY (SELECT
// …) TO STDOUT (FORMAT binary)` (sql.server.ts) reads the events through the filter's index and
// sends the plain values; CopyRows (copy-rows.ts) writes each row as a CSV or NDJSON line
// (formats.ts) while PostgreSQL produces the next ones, naming actors and targets from a
// NameDirectory (name-directory.server.ts) read just before in the same snapshot (by the audit
// view's rules, app/audit/query.server.ts). The stream (file-stream.ts) pulls from the database
// connection only as fast as the client reads (pg-copy-streams stops reading the socket when its
// buffer is full, and PostgreSQL then waits on TCP), and a client that goes away closes that
// connection, which ends the query.
//
// Sequence, so that the event is committed before the first byte and the file is the log as it
// was when the export began: (1) a REPEATABLE READ transaction on an export connection takes its
// snapshot (snapshot.server.ts), and the names are read in it; (2) the COPY starts and its first
// chunk arrives (the query runs); (3) `audit.exported` commits on the main pool (the snapshot
// does not see it); (4) the answer starts.
// Rows committed after (1) never appear, this export's own event included.
import { to as copyTo } from "pg-copy-streams";
import { auditExportBlocker, type AuditExporter } from "~/access/organization-access.server";
import type { AuditExportRequest, AuditFilters } from "~/audit/audit-query";
import { CopyRows } from "~/audit/export/copy-rows";
import { NAMES_IN_ROWS } from "~/audit/export/export-row";
import { fileStream } from "~/audit/export/file-stream";
import { EXPORT_FORMATS, exportFileName } from "~/audit/export/formats";
import { NAME_DIRECTORY_LIMIT, readNameDirectory } from "~/audit/export/name-directory.server";
import { openSnapshot, type ExportConnection } from "~/audit/export/snapshot.server";
import { exportCopySql, type NamesFrom } from "~/audit/export/sql.server";
import { recordAs } from "~/audit/record.server";
import { prisma } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import { consumeEachWithState, refundEach, type PolicyName, type PolicyState } from "~/lib/rate-limit.server";

export interface AuditExportFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
  /** Where the export policies stand for this caller (the RateLimit headers). */
  rateLimits: PolicyState[];
  /** How the rows were named (for the tests: both ways must agree). */
  namesFrom: NamesFrom;
}

/** The filters as recorded in `audit.exported` (only those given). */
function recordedFilters(filters: AuditFilters) {
  const { action, actorId, targetId, from, to } = filters;
  return Object.fromEntries(Object.entries({ action, actorId, targetId, from, to }).filter(([, v]) => v !== undefined));
}

/**
 * A download of the log (the export, its digests) past the gate: billing (409), then one point of
 * each export rate limit (429). Gives the points, to hand back when the download fails before it
 * starts, and where the policies stand (the RateLimit headers).
 */
export async function admitExportDownload(access: AuditExporter): Promise<{ points: [PolicyName, string][]; rateLimits: PolicyState[] }> {
  if (auditExportBlocker(access) === "billing") throw new DomainError("CONFLICT", "auditExport.billingBlocked");
  const points: [PolicyName, string][] = [
    ["audit.export.user", access.user.id],
    ["audit.export.organization", access.organization.id],
  ];
  return { points, rateLimits: await consumeEachWithState(points) };
}

/**
 * Exports the log for a caller who passed the export's check (app/access): billing (409), then
 * the rate limits (429), then the snapshot, the event and the stream. A refusal records nothing
 * and takes no rate-limit point; a failure before the stream starts gives the points back.
 */
export async function exportAuditLog(
  access: AuditExporter,
  request: AuditExportRequest,
  { nameDirectoryLimit = NAME_DIRECTORY_LIMIT }: { nameDirectoryLimit?: number } = {},
): Promise<AuditExportFile> {
  const { organization } = access;
  const { points, rateLimits } = await admitExportDownload(access);
  let connection: ExportConnection | null = null;
  try {
    connection = await openSnapshot();
    const client = connection.client;
    const format = EXPORT_FORMATS[request.format];
    const directory = await readNameDirectory(client, organization.id, nameDirectoryLimit);
    const namesFrom: NamesFrom = directory ? "directory" : "lookups";
    const copy = client.query(
      copyTo(
        exportCopySql(organization.id, request, namesFrom, (value) => client.escapeLiteral(value)),
        // Room for PostgreSQL to run ahead while this process writes lines (64 KiB left both
        // waiting on each other); still a constant per export.
        { highWaterMark: 1024 * 1024 },
      ),
    );
    const chunks = copy[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    // The COPY's first chunk proves the query runs before anything is recorded or answered; the
    // rest waits in PostgreSQL (backpressure) while the event commits.
    const first = await chunks.next();
    await prisma.$transaction((tx) =>
      recordAs(access)(tx, {
        action: "audit.exported",
        target: { type: "organization", id: organization.id },
        details: { format: request.format, filters: recordedFilters(request.query.filters) },
      }),
    );
    return {
      body: fileStream(
        chunks,
        first.done ? Buffer.alloc(0) : first.value,
        connection,
        new CopyRows(format.line, directory ?? NAMES_IN_ROWS),
        format.head,
        format.interrupted,
      ),
      contentType: format.contentType,
      fileName: exportFileName(organization.slug, request.query.filters, request.format),
      rateLimits,
      namesFrom,
    };
  } catch (error) {
    connection?.destroy(error);
    await refundEach(points).catch(() => {});
    throw error;
  }
}

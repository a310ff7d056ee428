// Exporting an organization's audit log (docs/product-rules.md, "Export the audit log"): every
// event the filters select, newest first, as CSV (RFC 4180) or NDJSON, streamed from one
// consistent snapshot with constant memory. The file is never stored.
//
// PostgreSQL writes the file (docs/decisions/0025-audit-export.md): one `COPY (SELECT …) TO
// STDOUT` reads the events through the filter's index with the same name lookups as the audit
// view (app/audit/query.server.ts), formats each row as a finished CSV or NDJSON line, and sends
// it in COPY's binary framing, so this process only strips six bytes of framing per row. The
// stream pulls from the database connection only as fast as the client reads (pg-copy-streams
// stops reading the socket when its buffer is full, and PostgreSQL then waits on TCP), and a
// client that goes away closes that connection, which ends the query.
//
// Sequence, so that the event is committed before the first byte and the file is the log as it
// was when the export began: (1) a REPEATABLE READ transaction on an export connection takes its
// snapshot; (2) the COPY starts in it and its first chunk arrives (the query runs); (3)
// `audit.exported` commits on the main pool (the snapshot does not see it); (4) the answer starts.
// Rows committed after (1) never appear, this export's own event included.
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { auditExportBlocker, type AuditExporter } from "~/access/organization-access.server";
import { exportPool, prisma, uuidOrNull } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import { DomainError } from "~/lib/domain-error";
import { logger } from "~/lib/logger.server";
import { consumeEachWithState, refundEach, type PolicyName, type PolicyState } from "~/lib/rate-limit.server";
import type { AuditExportFormat, AuditExportRequest, AuditFilters, AuditQuery } from "./audit-query";
import { filterConditions, nameJoins, NAMED_COLUMNS } from "./query.server";
import { recordAuditEvent, userActor } from "./record.server";

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

export const EXPORT_FORMATS: Record<AuditExportFormat, { contentType: string; extension: string }> = {
  csv: { contentType: "text/csv; charset=utf-8; header=present", extension: "csv" },
  json: { contentType: "application/x-ndjson", extension: "ndjson" },
};

/** How long a request waits for one of the EXPORT_CONNECTIONS before it is told to come back. */
const CONNECTION_WAIT_MS = 30_000;

// ---- SQL -------------------------------------------------------------------------------------

/** ISO 8601 in UTC with milliseconds, as the view's API gives it (`2026-11-23T09:15:02.123Z`). */
const ISO_TIME = `to_char(r."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A text value for a CSV cell: one starting with `=`, `+`, `-`, `@`, tab or carriage return gets a
 * leading `'`, so no spreadsheet runs it as a formula (OWASP, CSV injection). `ascii()` is the
 * code point of the first character (0 for an empty string); NULL (a deleted record's name) stays
 * NULL, an empty cell.
 */
const formulaSafe = (text: string) => `CASE WHEN ascii(${text}) IN (9, 13, 43, 45, 61, 64) THEN '''' || ${text} ELSE ${text} END`;

/** The details as JSON text, converted once (jsonb's text output is the costly part). Of all JSON
 * values only a negative number starts with a formula character (`-`). */
const CSV_DETAILS = `CASE WHEN jsonb_typeof(r.details) = 'number' AND r.details < '0'::jsonb THEN '''' || r.details::text ELSE r.details::text END`;

/** A JSON member's value from a text expression; NULL (a deleted record's name) is `null`. */
const jsonText = (text: string) => `COALESCE(to_json(${text})::text, 'null')`;

const CSV_HEADER = Buffer.from(`${EXPORT_COLUMNS.join(",")}\r\n`, "utf8");

/** Turns what COPY sends into the file's bytes, chunk by chunk; `complete` once it all arrived whole. */
interface CopyReader {
  push(chunk: Buffer): Buffer;
  readonly complete: boolean;
}

/**
 * What each format's COPY selects from the named rows `r` (NAMED_COLUMNS plus details), in which
 * COPY format, and how this process finishes it:
 * - CSV: the columns, in COPY's own CSV format (RFC 4180 quoting, done in C: a field is quoted when
 *   it holds a comma, quote or line break; NULL is an empty field); this process only turns its
 *   LF line ends into CRLF.
 * - NDJSON: the finished line as one text column in COPY's binary framing, which this process
 *   strips (the text and CSV formats would escape or quote the JSON).
 */
const COPY_PLAN: Record<AuditExportFormat, { select: string; copyFormat: string; reader: () => CopyReader; head: Buffer | null }> = {
  csv: {
    select: `r.id, ${ISO_TIME}, ${formulaSafe("r.action")}, r."actorKind", ${formulaSafe('r."actorId"')}, ${formulaSafe('r."actorName"')},
             ${formulaSafe('r."targetType"')}, ${formulaSafe('r."targetId"')}, ${formulaSafe('r."targetName"')}, ${CSV_DETAILS}`,
    copyFormat: "csv",
    reader: () => new CsvLineEnds(),
    head: CSV_HEADER,
  },
  // Compact JSON, members in the columns' order; details stay an object (jsonb's own text).
  json: {
    select: `concat('{"id":"', r.id, '","createdAt":"', ${ISO_TIME}, '","action":', ${jsonText("r.action")}, ',"actorKind":"', r."actorKind",
          '","actorId":', ${jsonText('r."actorId"')}, ',"actorName":', ${jsonText('r."actorName"')},
          ',"targetType":', ${jsonText('r."targetType"')}, ',"targetId":', ${jsonText('r."targetId"')},
          ',"targetName":', ${jsonText('r."targetName"')}, ',"details":', r.details, E'}\\n')`,
    copyFormat: "binary",
    reader: () => new CopyLines(),
    head: null,
  },
};

/** The view's name lookups (app/audit/query.server.ts), each converting the id itself: Memoize
 * then answers repeated actors and targets (a few members and keys, a million rows) from memory. */
const EXPORT_NAME_JOINS = nameJoins(uuidOrNull("e.actor_id"), uuidOrNull("e.target_id"));

/** The statement inside COPY, with `$n` placeholders (exported for the plan test). */
export function exportSelectSql(organizationId: string, request: AuditExportRequest): Prisma.Sql {
  return namedRowsSql(organizationId, request.query, COPY_PLAN[request.format].select);
}

/** The whole COPY statement, values written in (see inlineSql). */
export function exportCopySql(organizationId: string, request: AuditExportRequest, escapeLiteral: (value: string) => string): string {
  const select = inlineSql(exportSelectSql(organizationId, request), escapeLiteral);
  return `COPY (${select}) TO STDOUT (FORMAT ${COPY_PLAN[request.format].copyFormat})`;
}

/**
 * COPY's CSV rows end in LF; RFC 4180 asks for CRLF. Line breaks inside a quoted field (a name
 * written with one) stay as they are: the quote state is followed across chunks (a doubled quote
 * inside a field closes and reopens it, which leaves the state right).
 */
export class CsvLineEnds implements CopyReader {
  #inQuotes = false;
  #ends: number[] = [];

  get complete(): boolean {
    return !this.#inQuotes;
  }

  push(chunk: Buffer): Buffer {
    const ends = this.#ends;
    ends.length = 0;
    let inQuotes = this.#inQuotes;
    let quote = chunk.indexOf(0x22);
    let lineFeed = chunk.indexOf(0x0a);
    while (lineFeed !== -1) {
      if (quote !== -1 && quote < lineFeed) {
        inQuotes = !inQuotes;
        quote = chunk.indexOf(0x22, quote + 1);
        continue;
      }
      if (!inQuotes) ends.push(lineFeed);
      lineFeed = chunk.indexOf(0x0a, lineFeed + 1);
    }
    for (; quote !== -1; quote = chunk.indexOf(0x22, quote + 1)) inQuotes = !inQuotes;
    this.#inQuotes = inQuotes;
    if (ends.length === 0) return chunk;
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let at = 0;
    for (const end of ends) {
      at += chunk.copy(out, at, from, end);
      out[at++] = 0x0d;
      from = end;
    }
    chunk.copy(out, at, from);
    return out;
  }
}

/**
 * `select` over the named rows `r` (the audit view's columns and name lookups, plus details) that
 * the filters select, newest first, in the filter index's order (no sort). The benchmark's psql
 * baseline selects the plain columns from the same rows.
 */
export function namedRowsSql(organizationId: string, query: AuditQuery, select: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ${Prisma.raw(select)}
    FROM (
      SELECT ${NAMED_COLUMNS}, e.details
      FROM (
        SELECT id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details
        FROM audit_events
        WHERE ${Prisma.join(filterConditions(organizationId, query), " AND ")}
        ORDER BY created_at DESC, id DESC
      ) e
      ${EXPORT_NAME_JOINS}
    ) r
    ORDER BY r."createdAt" DESC, r.id DESC`;
}

/** The settings every export runs with (see openSnapshot). */
export const EXPORT_SETTINGS = `SET LOCAL enable_sort = off; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0;
      SET LOCAL client_connection_check_interval = '1s';`;

/**
 * COPY takes no parameters, so values are written into the text as literals, each through
 * PostgreSQL's own quoting (`escapeLiteral`). They have passed the query contract's rules (ids,
 * action identifiers, dates) before they get here.
 */
export function inlineSql(sql: Prisma.Sql, escapeLiteral: (value: string) => string): string {
  return sql.text.replace(/\$(\d+)/g, (_, n: string) => {
    const value: unknown = sql.values[Number(n) - 1];
    if (value instanceof Date) return escapeLiteral(value.toISOString());
    if (typeof value === "string") return escapeLiteral(value);
    throw new Error(`cannot inline a ${typeof value} into the export's SQL`);
  });
}

/** COPY's binary framing: a 19-byte signature and header (plus an extension), then per row a field
 * count (int16), the field's length (int32) and its bytes, then -1 as the trailer. */
const SIGNATURE_BYTES = 19;

/**
 * Takes COPY's binary output in chunks of any size and gives back the line bytes they contain.
 * Every line is one text field (CSV or NDJSON, finished in SQL). Copies each line once into one
 * buffer per chunk; a row split across chunks is carried over (at most one row).
 */
export class CopyLines implements CopyReader {
  #carry: Buffer | null = null;
  #started = false;
  ended = false;

  get complete(): boolean {
    return this.ended;
  }

  /** The size of the item at `pos` (header, row or trailer), or -1 when `buf` does not show it yet. */
  #sizeAt(buf: Buffer, pos: number): number {
    if (!this.#started) return buf.length - pos < SIGNATURE_BYTES ? -1 : SIGNATURE_BYTES + buf.readUInt32BE(pos + 15);
    if (buf.length - pos < 2) return -1;
    const fields = buf.readInt16BE(pos);
    if (fields === -1) return 2;
    if (fields !== 1) throw new Error(`unexpected COPY row with ${fields} fields`);
    return buf.length - pos < 6 ? -1 : 6 + buf.readInt32BE(pos + 2);
  }

  #emit(buf: Buffer, pos: number, size: number, out: Buffer, at: number): number {
    if (!this.#started) {
      if (buf.toString("latin1", pos, pos + 11) !== "PGCOPY\n\xff\r\n\0") throw new Error("not COPY binary output");
      this.#started = true;
      return at;
    }
    if (size === 2) {
      this.ended = true;
      return at;
    }
    return at + buf.copy(out, at, pos + 6, pos + size);
  }

  push(chunk: Buffer): Buffer {
    const out = Buffer.allocUnsafe(chunk.length + (this.#carry?.length ?? 0));
    let at = 0;
    let pos = 0;
    const carry = this.#carry;
    if (carry) {
      // Finish the carried item with just the bytes of this chunk that it needs.
      const probe = Buffer.concat([carry, chunk.subarray(0, SIGNATURE_BYTES)]);
      const size = this.#sizeAt(probe, 0);
      if (size === -1 || size - carry.length > chunk.length) {
        this.#carry = Buffer.concat([carry, chunk]);
        return out.subarray(0, 0);
      }
      const item = Buffer.concat([carry, chunk.subarray(0, size - carry.length)]);
      at = this.#emit(item, 0, size, out, at);
      pos = size - carry.length;
      this.#carry = null;
    }
    while (pos < chunk.length) {
      const size = this.#sizeAt(chunk, pos);
      if (size === -1 || pos + size > chunk.length) break;
      at = this.#emit(chunk, pos, size, out, at);
      pos += size;
    }
    if (pos < chunk.length) this.#carry = Buffer.from(chunk.subarray(pos));
    return out.subarray(0, at);
  }
}

// ---- The export --------------------------------------------------------------------------------

export interface AuditExportFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
  /** Where the export policies stand for this caller (the RateLimit headers). */
  rateLimits: PolicyState[];
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** `audit-log-<slug>-<from>-to-<to>.csv`: the filters' date range, up to today when open-ended. */
export function exportFileName(slug: string, filters: AuditFilters, format: AuditExportFormat, now = new Date()): string {
  const range = filters.from ? `${filters.from}-to-${filters.to ?? isoDay(now)}` : `until-${filters.to ?? isoDay(now)}`;
  return `audit-log-${slug}-${range}.${EXPORT_FORMATS[format].extension}`;
}

/** The filters as recorded in `audit.exported` (only those given). */
function recordedFilters(filters: AuditFilters) {
  const { action, actorId, targetId, from, to } = filters;
  return Object.fromEntries(Object.entries({ action, actorId, targetId, from, to }).filter(([, v]) => v !== undefined));
}

interface ExportConnection {
  client: pg.PoolClient;
  /** Closes the connection at once (a client that left, an error): PostgreSQL ends the query. */
  destroy(reason: Error): void;
  /** Ends the transaction and gives the connection back. */
  finish(): Promise<void>;
}

async function openSnapshot(): Promise<ExportConnection> {
  let client: pg.PoolClient;
  try {
    client = await exportPool().connect();
  } catch (error) {
    logger.warn({ err: error }, "no export connection");
    throw new DomainError("TOO_MANY_REQUESTS", "auditExport.busy", { retryAfterSeconds: CONNECTION_WAIT_MS / 1000 });
  }
  // An error on this connection (we close it under a running COPY on purpose) must not go unheard.
  const onError = () => {};
  client.on("error", onError);
  let done = false;
  const socket = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  const connection: ExportConnection = {
    client,
    destroy(reason) {
      if (done) return;
      done = true;
      socket?.destroy();
      client.release(reason);
    },
    async finish() {
      if (done) return;
      await client.query("COMMIT");
      done = true;
      client.off("error", onError);
      client.release();
    },
  };
  try {
    // The snapshot is taken by the SELECT. Sorting is off so the rows come in index order from the
    // first one (a million-row sort would delay the first byte by seconds); JIT compilation would
    // cost its time before the first row too. client_connection_check_interval lets a long scan
    // that has sent nothing yet notice a client that went away.
    await client.query(`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; ${EXPORT_SETTINGS} SELECT 1`);
  } catch (error) {
    connection.destroy(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  return connection;
}

/** The COPY's output as a web stream that reads from the database only when the client has taken
 * the previous chunk. `first` is the COPY's first chunk, read before the answer starts. */
function streamOf(
  chunks: AsyncIterator<Buffer>,
  first: Buffer,
  connection: ExportConnection,
  lines: CopyReader,
  head: Buffer | null,
): ReadableStream<Uint8Array> {
  const opening = lines.push(first);
  const fail = (error: unknown) => connection.destroy(error instanceof Error ? error : new Error(String(error)));
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const bytes = head ? Buffer.concat([head, opening]) : opening;
        if (bytes.length > 0) controller.enqueue(bytes);
      },
      async pull(controller) {
        try {
          for (;;) {
            const { value, done } = await chunks.next();
            if (done) {
              if (!lines.complete) throw new Error("the export's COPY ended early");
              await connection.finish();
              controller.close();
              return;
            }
            const out = lines.push(value);
            if (out.length > 0) {
              controller.enqueue(out);
              return;
            }
          }
        } catch (error) {
          fail(error);
          throw error;
        }
      },
      cancel() {
        // The client went away: closing the connection ends the query at once.
        fail(new Error("the client closed the export"));
        void chunks.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

/**
 * Exports the log for a caller who passed the export's check (app/access): billing (409), then
 * the rate limits (429), then the snapshot, the event and the stream. A refusal records nothing
 * and takes no rate-limit point; a failure before the stream starts gives the points back.
 */
export async function exportAuditLog(access: AuditExporter, request: AuditExportRequest): Promise<AuditExportFile> {
  const { organization, user } = access;
  if (auditExportBlocker(access) === "billing") throw new DomainError("CONFLICT", "auditExport.billingBlocked");
  const points: [PolicyName, string][] = [
    ["audit.export.user", user.id],
    ["audit.export.organization", organization.id],
  ];
  const rateLimits = await consumeEachWithState(points);
  let connection: ExportConnection | null = null;
  try {
    connection = await openSnapshot();
    const client = connection.client;
    const plan = COPY_PLAN[request.format];
    const copy = client.query(
      copyTo(
        exportCopySql(organization.id, request, (value) => client.escapeLiteral(value)),
        { highWaterMark: 64 * 1024 },
      ),
    );
    const chunks = copy[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    // The COPY's first chunk proves the query runs before anything is recorded or answered; the
    // rest waits in PostgreSQL (backpressure) while the event commits.
    const first = await chunks.next();
    await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: organization.id,
        action: "audit.exported",
        actor: userActor(user),
        target: { type: "organization", id: organization.id },
        details: { format: request.format, filters: recordedFilters(request.query.filters) },
      }),
    );
    return {
      body: streamOf(chunks, first.done ? Buffer.alloc(0) : first.value, connection, plan.reader(), plan.head),
      contentType: EXPORT_FORMATS[request.format].contentType,
      fileName: exportFileName(organization.slug, request.query.filters, request.format),
      rateLimits,
    };
  } catch (error) {
    connection?.destroy(error instanceof Error ? error : new Error(String(error)));
    await refundEach(points).catch(() => {});
    throw error;
  }
}

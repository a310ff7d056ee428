// Exporting an organization's audit log (docs/product-rules.md, "Export the audit log"): every
// event the filters select, newest first, as CSV (RFC 4180) or NDJSON, streamed from one
// consistent snapshot with constant memory. The file is never stored.
//
// PostgreSQL reads, this process writes (docs/decisions/0025-audit-export.md): one `COPY (SELECT
// …) TO STDOUT (FORMAT binary)` reads the events through the filter's index with the same name
// lookups as the audit view (app/audit/query.server.ts) and sends the plain values; CopyRows
// writes each row as a CSV or NDJSON line while PostgreSQL produces the next ones. The
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
import { isoDay } from "~/lib/dates";
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

/** How long a request waits for one of the EXPORT_CONNECTIONS before it is told to come back. */
const CONNECTION_WAIT_MS = 30_000;

// ---- SQL -------------------------------------------------------------------------------------

/** What COPY selects from the named rows `r`, in EXPORT_COLUMNS order: the plain values, as the
 * benchmark's psql baseline selects them (details as jsonb's text, converted once). */
const EXPORT_SELECT = `r.id, r."createdAt", r.action, r."actorKind", r."actorId", r."actorName", r."targetType", r."targetId", r."targetName", r.details::text`;

/** The view's name lookups (app/audit/query.server.ts), each converting the id itself: Memoize
 * then answers repeated actors and targets (a few members and keys, a million rows) from memory. */
const EXPORT_NAME_JOINS = nameJoins(uuidOrNull("e.actor_id"), uuidOrNull("e.target_id"));

/** The statement inside COPY, with `$n` placeholders (exported for the plan test). */
export function exportSelectSql(organizationId: string, request: AuditExportRequest): Prisma.Sql {
  return namedRowsSql(organizationId, request.query, EXPORT_SELECT);
}

/** The whole COPY statement, values written in (see inlineSql). */
export function exportCopySql(organizationId: string, request: AuditExportRequest, escapeLiteral: (value: string) => string): string {
  const select = inlineSql(exportSelectSql(organizationId, request), escapeLiteral);
  return `COPY (${select}) TO STDOUT (FORMAT binary)`;
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

/** An instant as PostgreSQL reads it: ISO 8601, except that JavaScript writes years past 9999
 * as `+010000`, which PostgreSQL refuses (the end of the last accepted day, 9999-12-31, is one). */
export function postgresTimestamp(date: Date): string {
  return date.toISOString().replace(/^\+0*/, "");
}

/**
 * COPY takes no parameters, so values are written into the text as literals, each through
 * PostgreSQL's own quoting (`escapeLiteral`). They have passed the query contract's rules (ids,
 * action identifiers, dates) before they get here.
 */
export function inlineSql(sql: Prisma.Sql, escapeLiteral: (value: string) => string): string {
  return sql.text.replace(/\$(\d+)/g, (_, n: string) => {
    const value: unknown = sql.values[Number(n) - 1];
    if (value instanceof Date) return escapeLiteral(postgresTimestamp(value));
    if (typeof value === "string") return escapeLiteral(value);
    throw new Error(`cannot inline a ${typeof value} into the export's SQL`);
  });
}

// ---- Rows to lines --------------------------------------------------------------------------

/** COPY's binary framing: a 19-byte signature and header (plus an extension), then per row a field
 * count (int16) and per field its length (int32, -1 for NULL) and bytes, then -1 as the trailer. */
const SIGNATURE_BYTES = 19;
const FIELDS = EXPORT_COLUMNS.length;
const EMPTY = Buffer.alloc(0);

/** One row's fields: where each starts in `buf` and its length (-1: NULL). */
interface RowFields {
  buf: Buffer;
  starts: Int32Array;
  lengths: Int32Array;
}

const text = ({ buf, starts, lengths }: RowFields, i: number): string | null =>
  lengths[i]! < 0 ? null : buf.toString("utf8", starts[i]!, starts[i]! + lengths[i]!);

/** A uuid's 16 bytes as its usual text. */
function uuidText({ buf, starts }: RowFields, i: number): string {
  const hex = buf.toString("hex", starts[i]!, starts[i]! + 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** PostgreSQL's timestamps count microseconds from 2000-01-01 UTC. */
const POSTGRES_EPOCH_MS = 946_684_800_000;

/** ISO 8601 in UTC with milliseconds, as the view's API gives it (`2026-11-23T09:15:02.123Z`).
 * Microseconds since 2000 stay below 2^53 for millennia, so two int32 halves add up exactly. */
function isoTime({ buf, starts }: RowFields, i: number): string {
  const micros = buf.readInt32BE(starts[i]!) * 4_294_967_296 + buf.readUInt32BE(starts[i]! + 4);
  return new Date(POSTGRES_EPOCH_MS + Math.floor(micros / 1000)).toISOString();
}

const FORMULA_START = /^[=+\-@\t\r]/;
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
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const CSV_HEADER = Buffer.from(`${EXPORT_COLUMNS.join(",")}\r\n`, "utf8");

/** Each format's answer: its content type and file extension, its line from one row (fields in
 * EXPORT_COLUMNS order), and what precedes the rows. */
export const EXPORT_FORMATS: Record<
  AuditExportFormat,
  { contentType: string; extension: string; line: (row: RowFields) => string; head: Buffer | null }
> = {
  csv: {
    contentType: "text/csv; charset=utf-8; header=present",
    extension: "csv",
    line: (row) =>
      `${uuidText(row, 0)},${isoTime(row, 1)},${csvCell(text(row, 2))},${csvCell(text(row, 3))},${csvCell(text(row, 4))},${csvCell(text(row, 5))},${csvCell(text(row, 6))},${csvCell(text(row, 7))},${csvCell(text(row, 8))},${csvCell(text(row, 9))}\r\n`,
    head: CSV_HEADER,
  },
  // Compact JSON, members in the columns' order; details stay an object (jsonb's own text);
  // JSON.stringify(null) is `null` (a deleted record's name).
  json: {
    contentType: "application/x-ndjson",
    extension: "ndjson",
    line: (row) =>
      `{"id":"${uuidText(row, 0)}","createdAt":"${isoTime(row, 1)}","action":${JSON.stringify(text(row, 2))},"actorKind":${JSON.stringify(text(row, 3))},"actorId":${JSON.stringify(text(row, 4))},"actorName":${JSON.stringify(text(row, 5))},"targetType":${JSON.stringify(text(row, 6))},"targetId":${JSON.stringify(text(row, 7))},"targetName":${JSON.stringify(text(row, 8))},"details":${text(row, 9)}}\n`,
    head: null,
  },
};

/**
 * Takes COPY's binary output in chunks of any size and gives back the file's bytes for the rows
 * they complete, each written by `line`. A row split across chunks is carried over (at most one
 * row). PostgreSQL reads, filters and names the rows while this process writes the previous
 * chunk's lines: the two run side by side on separate cores.
 */
export class CopyRows {
  #carry: Buffer | null = null;
  #started = false;
  #ended = false;
  readonly #row: RowFields = { buf: EMPTY, starts: new Int32Array(FIELDS), lengths: new Int32Array(FIELDS) };

  constructor(private readonly line: (row: RowFields) => string) {}

  /** The trailer arrived: every row is in. */
  get complete(): boolean {
    return this.#ended;
  }

  push(chunk: Buffer): Buffer {
    const buf = this.#carry ? Buffer.concat([this.#carry, chunk]) : chunk;
    this.#carry = null;
    let pos = 0;
    if (!this.#started) {
      if (buf.length >= 11 && buf.toString("latin1", 0, 11) !== "PGCOPY\n\xff\r\n\0") throw new Error("not COPY binary output");
      const headerEnd = buf.length < SIGNATURE_BYTES ? Infinity : SIGNATURE_BYTES + buf.readUInt32BE(15);
      if (buf.length < headerEnd) {
        this.#carry = Buffer.from(buf);
        return EMPTY;
      }
      this.#started = true;
      pos = headerEnd;
    }
    const row = this.#row;
    row.buf = buf;
    let out = "";
    while (!this.#ended && pos + 2 <= buf.length) {
      const fields = buf.readInt16BE(pos);
      if (fields === -1) {
        this.#ended = true;
        pos += 2;
        break;
      }
      if (fields !== FIELDS) throw new Error(`unexpected COPY row with ${fields} fields`);
      let at = pos + 2;
      let i = 0;
      for (; i < FIELDS && at + 4 <= buf.length; i++) {
        const length = buf.readInt32BE(at);
        row.starts[i] = at + 4;
        row.lengths[i] = length;
        at += 4 + Math.max(length, 0);
        if (at > buf.length) break;
      }
      if (i < FIELDS) break;
      out += this.line(row);
      pos = at;
    }
    if (pos < buf.length && !this.#ended) this.#carry = Buffer.from(buf.subarray(pos));
    row.buf = EMPTY;
    return out ? Buffer.from(out, "utf8") : EMPTY;
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
  destroy(reason: unknown): void;
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
      client.release(reason instanceof Error ? reason : new Error(String(reason)));
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
    connection.destroy(error);
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
  rows: CopyRows,
  head: Buffer | null,
): ReadableStream<Uint8Array> {
  const opening = rows.push(first);
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
              if (!rows.complete) throw new Error("the export's COPY ended early");
              await connection.finish();
              controller.close();
              return;
            }
            const out = rows.push(value);
            if (out.length > 0) {
              controller.enqueue(out);
              return;
            }
          }
        } catch (error) {
          connection.destroy(error);
          throw error;
        }
      },
      cancel() {
        // The client went away: closing the connection ends the query at once.
        connection.destroy(new Error("the client closed the export"));
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
    const format = EXPORT_FORMATS[request.format];
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
      body: streamOf(chunks, first.done ? EMPTY : first.value, connection, new CopyRows(format.line), format.head),
      contentType: format.contentType,
      fileName: exportFileName(organization.slug, request.query.filters, request.format),
      rateLimits,
    };
  } catch (error) {
    connection?.destroy(error);
    await refundEach(points).catch(() => {});
    throw error;
  }
}

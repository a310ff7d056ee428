// Exporting an organization's audit log (docs/product-rules.md, "Export the audit log"): every
// event the filters select, newest first, as CSV (RFC 4180) or NDJSON, streamed from one
// consistent snapshot with constant memory. The file is never stored.
//
// PostgreSQL reads, this process writes (docs/decisions/0025-audit-export.md): one `COPY (SELECT
// …) TO STDOUT (FORMAT binary)` reads the events through the filter's index and sends the plain
// values; CopyRows writes each row as a CSV or NDJSON line while PostgreSQL produces the next
// ones, naming actors and targets from a NameDirectory read just before in the same snapshot
// (by the audit view's rules, app/audit/query.server.ts). The stream pulls from the database
// connection only as fast as the client reads (pg-copy-streams stops reading the socket when its
// buffer is full, and PostgreSQL then waits on TCP), and a client that goes away closes that
// connection, which ends the query.
//
// Sequence, so that the event is committed before the first byte and the file is the log as it
// was when the export began: (1) a REPEATABLE READ transaction on an export connection takes its
// snapshot, and the names are read in it; (2) the COPY starts and its first chunk arrives (the
// query runs); (3) `audit.exported` commits on the main pool (the snapshot does not see it); (4)
// the answer starts.
// Rows committed after (1) never appear, this export's own event included.
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { auditExportBlocker, type AuditExporter } from "~/access/organization-access.server";
import { exportPool, prisma, uuidOrNull } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import { isoDay } from "~/lib/dates";
import { DomainError } from "~/lib/domain-error";
import { hyphenatedUuid } from "~/lib/ids";
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

/** What COPY selects when a NameDirectory names the rows: the events' own columns in
 * EXPORT_COLUMNS order, the two name columns empty (NULL), so the rows have one shape either way. */
const PLAIN_SELECT = `id, created_at, action, actor_kind::text, actor_id, NULL::text, target_type, target_id, NULL::text, details::text`;

/** What COPY selects from the named rows `r` when PostgreSQL looks the names up (an organization
 * with more names than NAME_DIRECTORY_LIMIT): the same columns, as the benchmark's psql baseline
 * selects them (details as jsonb's text, converted once). */
const NAMED_SELECT = `r.id, r."createdAt", r.action, r."actorKind", r."actorId", r."actorName", r."targetType", r."targetId", r."targetName", r.details::text`;

/** The view's name lookups (app/audit/query.server.ts), each converting the id itself: Memoize
 * then answers repeated actors and targets from memory. */
const EXPORT_NAME_JOINS = nameJoins(uuidOrNull("e.actor_id"), uuidOrNull("e.target_id"));

/** Where an export's names come from: a NameDirectory read before the COPY, or the COPY's lookups. */
export type NamesFrom = "directory" | "lookups";

/** The statement inside COPY, with `$n` placeholders (exported for the plan test). */
export function exportSelectSql(organizationId: string, request: AuditExportRequest, namesFrom: NamesFrom): Prisma.Sql {
  if (namesFrom === "lookups") return namedRowsSql(organizationId, request.query, NAMED_SELECT);
  return Prisma.sql`
    SELECT ${Prisma.raw(PLAIN_SELECT)}
    FROM audit_events
    WHERE ${Prisma.join(filterConditions(organizationId, request.query), " AND ")}
    ORDER BY created_at DESC, id DESC`;
}

/** The whole COPY statement, values written in (see inlineSql). */
export function exportCopySql(
  organizationId: string,
  request: AuditExportRequest,
  namesFrom: NamesFrom,
  escapeLiteral: (value: string) => string,
): string {
  const select = inlineSql(exportSelectSql(organizationId, request, namesFrom), escapeLiteral);
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
      SET LOCAL client_connection_check_interval = '1s'; SET LOCAL client_encoding = 'UTF8';`;

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

/**
 * One row's fields: where each starts in `buf` and its length (-1: NULL). `str` is the same bytes
 * as a latin1 string (one character per byte), made once per chunk: a text field is then a slice
 * of it instead of a UTF-8 decoding of its own, and the lines go back to bytes through latin1 as
 * well, so every byte of PostgreSQL's UTF-8 comes out as it came in. What the lines look at
 * (quotes, commas, line breaks, a formula's first character, JSON's escapes) is all ASCII, which
 * UTF-8's multibyte sequences never contain, so the lines are the same as from decoded text. The
 * export's transaction asks for UTF-8 whatever the database's own encoding (EXPORT_SETTINGS).
 */
interface RowFields {
  buf: Buffer;
  str: string;
  starts: Int32Array;
  lengths: Int32Array;
}

const text = ({ str, starts, lengths }: RowFields, i: number): string | null =>
  lengths[i]! < 0 ? null : str.slice(starts[i]!, starts[i]! + lengths[i]!);

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A uuid's 16 bytes as its usual text. */
function uuidText({ buf, starts }: RowFields, i: number): string {
  const at = starts[i]!;
  let hex = "";
  for (let k = 0; k < 16; k++) {
    hex += HEX[buf[at + k]!]!;
    if (k === 3 || k === 5 || k === 7 || k === 9) hex += "-";
  }
  return hex;
}

/** PostgreSQL's timestamps count microseconds from 2000-01-01 UTC. */
const POSTGRES_EPOCH_MS = 946_684_800_000;
const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, "0"));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));

/** The day last written by isoTime and its text (`2026-11-23T`). Shared by concurrent exports,
 * which only makes it miss more often: it is checked on every row. */
let lastDay = NaN;
let lastDayText = "";

/**
 * ISO 8601 in UTC with milliseconds, as the view's API gives it (`2026-11-23T09:15:02.123Z`).
 * Events come in time order, so neighbours mostly share the day: its text is remembered and the
 * time of day written from tables (toISOString per row was a fifth of the export's CPU).
 */
function isoTime({ buf, starts }: RowFields, i: number): string {
  const at = starts[i]!;
  // The microseconds are high * 2^32 + low, past 2^53 after the year 2285; 2^32 = 4,294,967 *
  // 1000 + 296, so the milliseconds come out exact from parts that stay far below it.
  const high = buf.readInt32BE(at);
  const ms = POSTGRES_EPOCH_MS + high * 4_294_967 + Math.floor((high * 296 + buf.readUInt32BE(at + 4)) / 1000);
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = new Date(day * DAY_MS).toISOString().slice(0, -13);
  }
  let rest = ms - day * DAY_MS;
  const millis = rest % 1000;
  rest = (rest - millis) / 1000;
  const seconds = rest % 60;
  rest = (rest - seconds) / 60;
  const minutes = rest % 60;
  const hours = (rest - minutes) / 60;
  return `${lastDayText}${TWO_DIGITS[hours]!}:${TWO_DIGITS[minutes]!}:${TWO_DIGITS[seconds]!}.${THREE_DIGITS[millis]!}Z`;
}

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

const CSV_HEADER = Buffer.from(`${EXPORT_COLUMNS.join(",")}\r\n`, "utf8");

/** Where a row's actor and target names come from: its own fields (the COPY looked them up) or a
 * NameDirectory read before the COPY. Either gives latin1 text of UTF-8 bytes, as `text` does. */
interface RowNames {
  actor(row: RowFields): string | null;
  target(row: RowFields): string | null;
}

/** The names the COPY's own lookups put into the row (EXPORT_COLUMNS' actorName and targetName). */
const NAMES_IN_ROWS: RowNames = {
  actor: (row) => text(row, 5),
  target: (row) => text(row, 8),
};

/** A uuid as PostgreSQL's `uuid` input reads it (any case, optional braces, a hyphen allowed after
 * any four digits), in its canonical lowercase spelling; null when it is no uuid. */
const UUID_SPELLING = /^\{?([0-9a-f]{4}(?:-?[0-9a-f]{4}){7})\}?$/i;
function canonicalUuid(id: string): string | null {
  const match = UUID_SPELLING.exec(id);
  if (!match || id.startsWith("{") !== id.endsWith("}")) return null;
  return hyphenatedUuid(match[1]!.replaceAll("-", "").toLowerCase());
}

/** Text as the rows carry it: latin1 of its UTF-8 bytes (see RowFields). */
const asRowText = (value: string | null): string | null => (value === null ? null : Buffer.from(value, "utf8").toString("latin1"));

/**
 * Most names an export holds in memory: the users its organization's log names, the
 * organization's keys and invitations, and the organization. With the maps' own overhead some
 * 300-400 bytes each, so at most about 20 MB per export (EXPORT_CONNECTIONS run at once). An
 * organization with more is exported with the COPY's own lookups: slower, the same names.
 */
const NAME_DIRECTORY_LIMIT = 50_000;

/** Everything an organization's rows can name, read in the export's snapshot. The users come from
 * audit_event_users (every user the log names, kept by a trigger with the events); a deleted
 * user's name is NULL, as in the view's lookups. */
const NAME_DIRECTORY_SQL = `
  SELECT 'user' AS kind, n.user_id AS id, CASE WHEN u.deleted_at IS NULL THEN u.name END AS name
    FROM audit_event_users n LEFT JOIN users u ON u.id = ${uuidOrNull("n.user_id")}
   WHERE n.organization_id = $1
  UNION ALL SELECT 'api_key', id::text, name FROM api_keys WHERE organization_id = $1
  UNION ALL SELECT 'invitation', id::text, email FROM invitations WHERE organization_id = $1
  UNION ALL SELECT 'organization', id::text, name FROM organizations WHERE id = $1
  LIMIT $2`;

/**
 * The names of one organization's actors and targets, looked up per row in memory with the
 * conditions of the view's lookups (app/audit/query.server.ts, nameJoins): a user by the event's
 * id, an API key or invitation only if it is this organization's, the organization only when the
 * target is itself. The row's ids are latin1 slices and the directory's decoded strings: the same
 * for ASCII, which every uuid is (an id that is not ASCII is no uuid and has no name either way).
 */
class NameDirectory implements RowNames {
  /** Per kind of record (user, api_key, invitation): its names by id. */
  readonly #byKind = new Map<string, Map<string, string | null>>([
    ["user", new Map()],
    ["api_key", new Map()],
    ["invitation", new Map()],
  ]);
  #organizationName: string | null = null;

  constructor(
    private readonly organizationId: string,
    entries: { kind: string; id: string; name: string | null }[],
  ) {
    for (const { kind, id, name } of entries) {
      if (kind === "organization") this.#organizationName = asRowText(name);
      else this.#byKind.get(kind)?.set(id, asRowText(name));
    }
  }

  /** The name of the record of `kind` with this id; undefined kinds (jobs, webhooks…) have none.
   * Users are listed by the events' own spelling; keys and invitations by their canonical id. */
  #find(kind: string | null, id: string): string | null {
    const names = kind === null ? undefined : this.#byKind.get(kind);
    if (!names) return null;
    const name = names.get(id);
    if (name !== undefined) return name;
    const canonical = kind === "user" ? null : canonicalUuid(id);
    return canonical === null || canonical === id ? null : (names.get(canonical) ?? null);
  }

  actor(row: RowFields): string | null {
    const kind = text(row, 3);
    return kind === "user" || kind === "api_key" ? this.#find(kind, text(row, 4)!) : null;
  }

  target(row: RowFields): string | null {
    const type = text(row, 6);
    const id = text(row, 7)!;
    return type === "organization" ? (id === this.organizationId ? this.#organizationName : null) : this.#find(type, id);
  }
}

/** The organization's NameDirectory, read on `client` (in the export's snapshot), or null when it
 * would hold more than `limit` names. */
async function readNameDirectory(client: pg.ClientBase, organizationId: string, limit: number): Promise<NameDirectory | null> {
  const { rows } = await client.query<{ kind: string; id: string; name: string | null }>(NAME_DIRECTORY_SQL, [organizationId, limit + 1]);
  return rows.length > limit ? null : new NameDirectory(organizationId, rows);
}

type Line = (row: RowFields, names: RowNames) => string;

/** Each format's answer: its content type and file extension, its line from one row (fields in
 * EXPORT_COLUMNS order), and what precedes the rows. */
export const EXPORT_FORMATS: Record<AuditExportFormat, { contentType: string; extension: string; line: Line; head: Buffer | null }> = {
  csv: {
    contentType: "text/csv; charset=utf-8; header=present",
    extension: "csv",
    line: (row, names) =>
      `${uuidText(row, 0)},${isoTime(row, 1)},${csvCell(text(row, 2))},${csvCell(text(row, 3))},${csvCell(text(row, 4))},${csvCell(names.actor(row))},${csvCell(text(row, 6))},${csvCell(text(row, 7))},${csvCell(names.target(row))},${csvCell(text(row, 9))}\r\n`,
    head: CSV_HEADER,
  },
  // Compact JSON, members in the columns' order; details stay an object (jsonb's own text);
  // JSON.stringify(null) is `null` (a deleted record's name).
  json: {
    contentType: "application/x-ndjson",
    extension: "ndjson",
    line: (row, names) =>
      `{"id":"${uuidText(row, 0)}","createdAt":"${isoTime(row, 1)}","action":${JSON.stringify(text(row, 2))},"actorKind":${JSON.stringify(text(row, 3))},"actorId":${JSON.stringify(text(row, 4))},"actorName":${JSON.stringify(names.actor(row))},"targetType":${JSON.stringify(text(row, 6))},"targetId":${JSON.stringify(text(row, 7))},"targetName":${JSON.stringify(names.target(row))},"details":${text(row, 9)}}\n`,
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
  readonly #row: RowFields = { buf: EMPTY, str: "", starts: new Int32Array(FIELDS), lengths: new Int32Array(FIELDS) };

  constructor(
    private readonly line: Line,
    private readonly names: RowNames = NAMES_IN_ROWS,
  ) {}

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
    row.str = buf.toString("latin1");
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
      out += this.line(row, this.names);
      pos = at;
    }
    if (pos < buf.length && !this.#ended) this.#carry = Buffer.from(buf.subarray(pos));
    row.buf = EMPTY;
    row.str = "";
    return out ? Buffer.from(out, "latin1") : EMPTY;
  }
}

// ---- The export --------------------------------------------------------------------------------

export interface AuditExportFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
  /** Where the export policies stand for this caller (the RateLimit headers). */
  rateLimits: PolicyState[];
  /** How the rows were named (for the tests: both ways must agree). */
  namesFrom: NamesFrom;
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
    // that has sent nothing yet notice a client that went away. The lines are written from UTF-8
    // bytes (RowFields), so the transaction asks for them whatever the database's encoding.
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
export async function exportAuditLog(
  access: AuditExporter,
  request: AuditExportRequest,
  { nameDirectoryLimit = NAME_DIRECTORY_LIMIT }: { nameDirectoryLimit?: number } = {},
): Promise<AuditExportFile> {
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
      recordAuditEvent(tx, {
        organizationId: organization.id,
        action: "audit.exported",
        actor: userActor(user),
        target: { type: "organization", id: organization.id },
        details: { format: request.format, filters: recordedFilters(request.query.filters) },
      }),
    );
    return {
      body: streamOf(
        chunks,
        first.done ? EMPTY : first.value,
        connection,
        new CopyRows(format.line, directory ?? NAMES_IN_ROWS),
        format.head,
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

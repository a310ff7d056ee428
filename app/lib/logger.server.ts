// Structured logs (pino, JSON lines on stdout) and the log record of the request being served.
// The request edge (app/edge/request-edge.server.ts) creates one RequestLog per request and writes
// it as one line when the response closes; guards add what they learn (the organization, the
// user) with noteRequest. The record travels explicitly, in React Router's load context and in the
// RPC context, rather than through AsyncLocalStorage, whose promise hooks cost about an eighth of
// apiKey.authenticate's throughput on Node 20 (measured; docs/decisions/0018-logs.md).
// Never log secrets, cookies, Authorization headers, passwords or request bodies: nothing here
// takes a request or its headers, only the fields named below.
import pino from "pino";
import { LOG_LEVELS } from "~/env.server";
import { databaseUnavailableReason, type DatabaseUnavailableReason } from "./database-unavailable.server";

export interface RequestLog {
  requestId: string;
  method: string;
  /** The path without its query string (queries can carry tokens, e.g. an invitation link). */
  path: string;
  organizationId?: string;
  userId?: string;
  /** Set when the request failed because the database was unavailable: the request's line is then
   * one warn line naming the reason, with no stack (decision 0036). */
  databaseUnavailable?: DatabaseUnavailableReason;
}

/** Read without env(), so importing the logger needs no database configuration; env() has already
 * refused a bad LOG_LEVEL at boot. */
function levelFromEnvironment(): (typeof LOG_LEVELS)[number] {
  return LOG_LEVELS.find((level) => level === process.env.LOG_LEVEL) ?? "info";
}

/** Lines waiting for stdout beyond this are dropped, not kept: a log collector that stops reading
 * must not stall requests or fill the memory. */
const MAX_BUFFERED_LOG_BYTES = 16 * 1024 * 1024;

let stampedAt = 0;
let stamp = "";
/** pino's ISO time, made once per millisecond rather than once per line. */
function isoTimestamp(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

const destination = logDestination();

/** The logger's options (the test of formatRequestLine builds a pino with the same ones). */
export const loggerOptions = {
  level: levelFromEnvironment(),
  base: undefined,
  timestamp: isoTimestamp,
  formatters: { level: (label: string) => ({ level: label }) },
} satisfies pino.LoggerOptions;

export const logger = pino(loggerOptions, destination);

/**
 * stdout, written asynchronously: a request never waits for it, and the lines that arrive while a
 * write is under way go out together in the next one. pino writes what is left synchronously when
 * the process exits, process.exit included; a process killed outright (SIGKILL) can lose the lines
 * of its last moment.
 */
function logDestination() {
  return pino.destination({ dest: 1, sync: false, maxLength: MAX_BUFFERED_LOG_BYTES });
}

/**
 * Resolves once every line written so far has reached stdout (or after `timeoutMs`): for a process
 * about to exit on purpose. pino's own exit hook writes the lines still queued, but not a write
 * already under way when process.exit comes (a slow log reader): waiting here first loses none.
 */
export function flushLogs(timeoutMs = 1_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    timer.unref();
    destination.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

type RequestLineLevel = "info" | "warn" | "error";

/**
 * The line the request edge writes for every request, exactly as `logger[level](line, "request")`
 * would write it, but put together here: pino's general path (serializers, key by key) cost an
 * authenticate request several microseconds more (docs/decisions/0040-authenticate-profiled.md).
 * The fields are the RequestLog's and the edge's own: no error objects, nothing to serialize.
 */
export function logRequestLine(level: RequestLineLevel, line: RequestLine): void {
  if (logger.isLevelEnabled(level)) destination.write(formatRequestLine(level, line, isoTimestamp()));
}

type RequestLine = RequestLog & { status: number; durationMs: number; aborted?: true };

/** pino's own layout: level, time (`timestamp` as pino's timestamp function gives it), the fields, msg. */
export function formatRequestLine(level: RequestLineLevel, line: RequestLine, timestamp: string): string {
  const fields = JSON.stringify({ ...line, msg: "request" });
  return `{"level":"${level}"${timestamp},${fields.slice(1)}\n`;
}

/** Adds what a guard learned about the request (organization, user) to its log line. */
export function noteRequest(log: RequestLog | null | undefined, fields: Pick<Partial<RequestLog>, "organizationId" | "userId">): void {
  if (log) Object.assign(log, fields);
}

/** An unexpected error while serving a request, with the request's id. */
export function logRequestError(log: RequestLog | null | undefined, error: unknown, message: string): void {
  if (noteDatabaseUnavailable(log, error)) return;
  logger.error({ requestId: log?.requestId, err: error }, message);
}

/** True when `error` means the database is unavailable; the request's log line then says so
 * (and only that line: an outage would otherwise write a stack per request). */
export function noteDatabaseUnavailable(log: RequestLog | null | undefined, error: unknown): boolean {
  const reason = databaseUnavailableReason(error);
  if (!reason) return false;
  if (log) log.databaseUnavailable ??= reason;
  else logger.warn({ reason }, "database unavailable");
  return true;
}

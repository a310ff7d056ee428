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

export const logger = pino({
  level: levelFromEnvironment(),
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});

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

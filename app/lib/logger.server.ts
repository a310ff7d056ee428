// Structured logs (pino, JSON lines on stdout) and the fields of the request being served.
// The request edge (app/edge/request-edge.server.ts) opens a request scope; code deeper down adds
// what it learns (the organization, the user) with noteRequest, and every log line written inside
// the scope carries the request id. Never log secrets, cookies, Authorization headers, passwords
// or request bodies: nothing here takes a request or its headers, only the fields named below.
import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

export interface RequestLogFields {
  requestId: string;
  method: string;
  /** The path without its query string (queries can carry tokens, e.g. an invitation link). */
  path: string;
  organizationId?: string;
  userId?: string;
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function levelFromEnvironment(): (typeof LEVELS)[number] {
  const wanted = process.env.LOG_LEVEL;
  return LEVELS.find((level) => level === wanted) ?? "info";
}

const requestScope = new AsyncLocalStorage<RequestLogFields>();

export const logger = pino({
  level: levelFromEnvironment(),
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  // Every line written while a request is served names that request.
  mixin: () => {
    const scope = requestScope.getStore();
    return scope ? { requestId: scope.requestId } : {};
  },
});

export function withRequestScope<T>(fields: RequestLogFields, work: () => T): T {
  return requestScope.run(fields, work);
}

/** Adds what a guard learned about the request (organization, user) to its log line. */
export function noteRequest(fields: Pick<Partial<RequestLogFields>, "organizationId" | "userId">): void {
  const scope = requestScope.getStore();
  if (scope) Object.assign(scope, fields);
}

export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}

// The correlation id of the work in progress: the request id the edge assigned (the X-Request-Id
// answer header), or `job:<id>` inside a background job. The edge and the worker set it once, at
// the top; the audit recorder reads it, so every event carries the id of the request (or job) that
// caused it without each domain function passing it along (docs/decisions/0038-metrics-and-correlation.md).
// AsyncLocalStorage follows the work through every await. On Node 24 it is built on
// AsyncContextFrame, not on promise hooks, so it no longer costs the hot path what it did on
// Node 20 (docs/decisions/0018-logs.md); bench/RESULTS.md has the measurement.
import { AsyncLocalStorage } from "node:async_hooks";

/** One store per process, kept on globalThis as the database pool is: the dev server reloads
 * modules, and the tests load the edge from source beside the built bundle; every copy of this
 * module must read what the edge set. */
const globalForScope = globalThis as typeof globalThis & { __correlationScope?: AsyncLocalStorage<string> };
const scope = (globalForScope.__correlationScope ??= new AsyncLocalStorage<string>());

/** Runs `work` with `correlationId` as the ambient correlation id (a safe one: lib/correlation-id.ts). */
export function runWithCorrelationId<T>(correlationId: string, work: () => T): T {
  return scope.run(correlationId, work);
}

/** The ambient correlation id; undefined outside a request or job (scripts, the demo seed, tests). */
export function currentCorrelationId(): string | undefined {
  return scope.getStore();
}

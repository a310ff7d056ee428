// The work in progress, carried through every await by AsyncLocalStorage:
// - its correlation id: the request id the edge assigned (the X-Request-Id answer header), or
//   `job:<id>` inside a background job. The edge and the worker set it once, at the top; the audit
//   recorder reads it, so every event carries the id of the request (or job) that caused it without
//   each domain function passing it along (docs/decisions/0038-metrics-and-correlation.md);
// - the position in the primary's log that the request's reads must see (its read-your-writes
//   cookie, ./read-routing.server.ts): a replica that has not replayed that far is not read.
// On Node 24 AsyncLocalStorage is built on AsyncContextFrame, not on promise hooks, so it no longer
// costs the hot path what it did on Node 20 (docs/decisions/0018-logs.md); bench/RESULTS.md has the
// measurement.
import { AsyncLocalStorage } from "node:async_hooks";

interface WorkScope {
  correlationId: string;
  /** The primary's WAL position (an LSN as a number) this work's reads must see. */
  readAfterLsn?: bigint;
  /** Set when this work recorded an audit event or a support record: its answer then carries the
   * read-your-writes cookie, whatever the request's method. */
  recordedChange?: true;
}

/** One store per process, kept on globalThis as the database pool is: the dev server reloads
 * modules, and the tests load the edge from source beside the built bundle; every copy of this
 * module must read what the edge set. */
const globalForScope = globalThis as typeof globalThis & { __workScope?: AsyncLocalStorage<WorkScope> };
const scope = (globalForScope.__workScope ??= new AsyncLocalStorage<WorkScope>());

/** Runs `work` with `correlationId` as the ambient correlation id (a safe one: lib/correlation-id.ts),
 * and `readAfterLsn` as the log position its reads must see. */
export function runWithCorrelationId<T>(correlationId: string, work: () => T, readAfterLsn?: bigint): T {
  return scope.run({ correlationId, readAfterLsn }, work);
}

/** The ambient correlation id; undefined outside a request or job (scripts, the demo seed, tests). */
export function currentCorrelationId(): string | undefined {
  return scope.getStore()?.correlationId;
}

/** Notes that the work in progress recorded a change (app/audit/record.server.ts, the support records). */
export function noteRecordedChange(): void {
  const store = scope.getStore();
  if (store) store.recordedChange = true;
}

/** Whether the work in progress recorded a change so far. */
export function recordedChange(): boolean {
  return scope.getStore()?.recordedChange === true;
}

/** The log position the ambient request's reads must see; undefined when it wrote nothing lately. */
export function currentReadAfterLsn(): bigint | undefined {
  return scope.getStore()?.readAfterLsn;
}

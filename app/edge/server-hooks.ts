// The contract between the HTTP servers in server/ and the app bundle they load: the bundle's entry
// module (app/entry.server.tsx) exports `serverHooks` of this type, and the servers read it through
// serverHooksOf. One bundle, one database pool, one logger, whichever server runs it.
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import type { RequestListener } from "node:http";
import type { RequestEdgeOptions } from "./request-edge.server";

export interface ServerHooks {
  createRequestEdge(options: RequestEdgeOptions): RequestListener;
  /** Once at start, before listening: opens the first database connections and runs the code every
   * page runs, so the first requests cost what later ones do (app/web/warm-up.server.ts). */
  warmUp(build: ServerBuild): Promise<void>;
  /** Starts this instance's background worker (invitation mail); stop it before disconnectDb. */
  startWorker(): Promise<{ stop(): Promise<void> }>;
  /** Where mail is written when SMTP_URL is unset (null when it is set), for the start banner. */
  mailOutboxDir(): string | null;
  disconnectDb(): Promise<void>;
  logger: Logger;
  /** Resolves once the bundle's log lines so far have reached stdout: before the process exits. */
  flushLogs(): Promise<void>;
  /** The process's life as /readyz and long answers see it (app/lib/lifecycle.server.ts). */
  lifecycle: {
    /** SIGTERM: /readyz answers 503 from now on and every answer closes its connection. */
    beginDraining(): void;
    /** The grace period is over: running exports end with their error line; returns how many. */
    endStreams(): number;
    /** Exports running now. */
    streamsRunning(): number;
  };
}

export function serverHooksOf(build: ServerBuild): ServerHooks {
  const hooks = (build.entry.module as { serverHooks?: ServerHooks }).serverHooks;
  if (!hooks) throw new Error("The server build does not export serverHooks from app/entry.server.tsx.");
  return hooks;
}

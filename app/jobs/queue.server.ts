// Background jobs: graphile-worker on the app's own PostgreSQL (docs/decisions/0021-invitations-and-outbox.md).
// A job is added with SQL inside the caller's transaction, so it exists exactly when the change
// that asked for it commits: the job table is the transactional outbox. Every app instance runs
// a worker; graphile-worker locks a job row while one worker runs it (SKIP LOCKED), so several
// instances never run one job at the same time, and a failed job is retried with exponential
// backoff (about e^attempt seconds).
import { Logger, run, runOnce, type JobHelpers, type ParsedCronItem, type Runner, type Task, type TaskList } from "graphile-worker";
import type { Logger as Pino } from "pino";
import type { z } from "zod";
import { pool, type Tx } from "~/db.server";
import { isDatabaseUnavailable } from "~/lib/database-unavailable.server";
import { isDraining } from "~/lib/lifecycle.server";
import { HOUSEKEEPING_CRON, housekeepingTasks } from "./housekeeping.server";
import { withJobCorrelation } from "./job-correlation.server";

export interface JobOptions {
  /** At most one waiting job per key: adding another replaces the waiting one (no duplicates). */
  jobKey?: string;
  maxAttempts?: number;
}

/** Adds a job in the caller's transaction (the outbox row commits or rolls back with the change). */
export async function enqueueJob(tx: Tx, task: string, payload: Record<string, unknown>, options: JobOptions = {}): Promise<void> {
  await tx.$queryRaw`SELECT (graphile_worker.add_job(
      ${task},
      ${JSON.stringify(payload)}::json,
      job_key => ${options.jobKey ?? null}::text,
      max_attempts => ${options.maxAttempts ?? null}::int
    )).id`;
}

/** A task whose payload is checked first: a payload that does not parse will not get better by
 * retrying, so the job is dropped with one error line naming `what` (never the payload itself). */
export function taskWithPayload<S extends z.ZodType>(
  what: string,
  schema: S,
  run: (payload: z.infer<S>, helpers: JobHelpers) => Promise<void>,
): Task {
  return async (rawPayload, helpers) => {
    const payload = schema.safeParse(rawPayload);
    if (!payload.success) {
      helpers.logger.error(`${what} job with an unreadable payload: dropped`);
      return;
    }
    await run(payload.data, helpers);
  };
}

/** graphile-worker 0.18 no longer waits for a job's completion or failure to be written before it
 * takes the next job, stops, or returns from runOnce: a stop could end the pool under that write
 * (the job stays locked for 4 hours, then runs again). Its batcher (here: no delay) is flushed on
 * every stop, so each job's outcome is stored before stop() and runOnce resolve. */
const FLUSH_OUTCOMES_ON_STOP = { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } };

const PINO_LEVEL: Record<string, "error" | "warn" | "info" | "debug"> = { error: "error", warning: "warn", info: "info", debug: "debug" };

/** What a failed job's error may show in the log: its kind, its codes and its message with mail
 * addresses blanked (a mail server's refusal quotes the recipient; logs must not keep addresses of
 * people who may delete their accounts). Never the error's other fields (nodemailer lists the
 * rejected recipients there). */
export function loggableError(error: unknown): { type: string; message: string; code?: string; responseCode?: number } {
  const { name, message, code, responseCode } = (error ?? {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    responseCode?: unknown;
  };
  return {
    type: typeof name === "string" ? name : "Error",
    message: typeof message === "string" ? message.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, "[address]") : String(error),
    ...(typeof code === "string" ? { code } : {}),
    ...(typeof responseCode === "number" ? { responseCode } : {}),
  };
}

/** The level a worker's message goes to the log at. */
export function workerLogLevel(level: string, error: unknown): "error" | "warn" | "info" | "debug" {
  // 57P01: the database is shutting down. Ctrl-C in a terminal reaches the embedded PostgreSQL
  // too (same process group), which then ends the worker's connections while the app stops it:
  // expected, not an error (the shared pool ignores it too, app/db.server.ts). So is what follows
  // from it while this process drains, such as its UNLISTEN on the connection that just ended.
  if ((error as { code?: unknown } | undefined)?.code === "57P01" || (isDraining() && isDatabaseUnavailable(error))) return "debug";
  // Any other outage (refused, crashed, out of connections): the worker retries by itself (its
  // LISTEN client reconnects with backoff, polling goes on), so a warning, not an error (decision 0036).
  if (level === "error" && isDatabaseUnavailable(error)) return "warn";
  return PINO_LEVEL[level] ?? "info";
}

function workerLogger(logger: Pino | undefined): Logger {
  return new Logger((scope) => (level, message, meta) => {
    if (!logger) return;
    // Job payloads never reach the log: only the worker's own message and the job's name and id.
    logger[workerLogLevel(String(level), meta?.error)](
      { job: scope.taskIdentifier, jobId: scope.jobId, ...(meta?.error ? { err: loggableError(meta.error) } : {}) },
      message,
    );
  });
}

/** What a worker runs: the caller's tasks and the housekeeping, each with its correlation id. */
function taskListOf(tasks: TaskList): TaskList {
  return withJobCorrelation({ ...tasks, ...housekeepingTasks });
}

/** Starts this instance's worker. It listens for new jobs and also polls, so none waits long.
 * `cron`: the domains' scheduled items, beside the housekeeping. */
export function startWorker(tasks: TaskList, logger?: Pino, cron: ParsedCronItem[] = []): Promise<Runner> {
  return run({
    pgPool: pool(),
    taskList: taskListOf(tasks),
    // Given as parsed items: an unset `crontab` sends the worker looking for a ./crontab file.
    parsedCronItems: [...HOUSEKEEPING_CRON, ...cron],
    concurrency: 2,
    pollInterval: 2_000,
    noHandleSignals: true,
    logger: workerLogger(logger),
    preset: FLUSH_OUTCOMES_ON_STOP,
  });
}

/** Runs every job that is due now, then returns (tests, and scripts that must not linger). */
export function runDueJobs(tasks: TaskList): Promise<void> {
  return runOnce({
    pgPool: pool(),
    taskList: taskListOf(tasks),
    logger: workerLogger(undefined),
    preset: FLUSH_OUTCOMES_ON_STOP,
  });
}

// The ticks that queue the workers' jobs (the audit streams' pump, the audit digests' schedule):
// each tick runs its work and, every AHEAD_CHECK_MS at most, the restore check; a failed tick is
// logged (a database outage as a warning) and the next one runs as usual, so the ticks never end
// the process; a draining process queues nothing; the returned function stops the ticks and waits
// for the one in progress. One place, so the two schedules cannot drift apart.
import type { Logger } from "pino";
import { isDatabaseUnavailable } from "~/lib/database-unavailable.server";
import { isDraining } from "~/lib/lifecycle.server";

/** How often the restore check runs (and logs an error while it finds something). */
export const AHEAD_CHECK_MS = 10 * 60_000;

export interface PeriodicTicks {
  /** The tick's work: queues what is due. */
  work: () => Promise<unknown>;
  /** The restore check: how many cursors or digests are ahead of this database's transaction ids. */
  aheadOfDatabase: () => Promise<number>;
  /** The error logged while the check finds some: the log's fields for the count, and the message. */
  aheadError: (ahead: number) => [Record<string, number>, string];
  /** The message logged when a tick fails. */
  failure: string;
  firstDelayMs: number;
  nextDelayMs: () => number;
}

export function startPeriodicTicks(logger: Pick<Logger, "warn" | "error">, ticks: PeriodicTicks): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let checkedAt = -Infinity;
  const checkOrder = async () => {
    if (Date.now() - checkedAt < AHEAD_CHECK_MS) return;
    checkedAt = Date.now();
    const ahead = await ticks.aheadOfDatabase();
    if (ahead > 0) logger.error(...ticks.aheadError(ahead));
  };
  const tick = () => {
    running = (isDraining() ? Promise.resolve() : Promise.all([ticks.work(), checkOrder()])).then(
      () => undefined,
      (error: unknown) => {
        const { message, code } = error as { message?: string; code?: string };
        logger[isDatabaseUnavailable(error) ? "warn" : "error"]({ err: { message, code } }, ticks.failure);
      },
    );
    void running.finally(() => {
      if (!stopped) timer = setTimeout(tick, ticks.nextDelayMs());
    });
  };
  timer = setTimeout(tick, ticks.firstDelayMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

// Waiting, in a test, until another connection is blocked on a lock: the moment to do what must
// happen while it waits (a second writer, a check that nothing has committed).
import type pg from "pg";

/** Resolves once a backend of `watcher`'s database waits for a lock while running a statement that
 * mentions `pattern`. */
export async function untilWaitingForLock(watcher: pg.Client, pattern: string): Promise<void> {
  for (;;) {
    const { rows } = await watcher.query(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE $1`,
      [`%${pattern}%`],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

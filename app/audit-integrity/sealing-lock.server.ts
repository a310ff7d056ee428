// Whether an organization's digest job is alive. A job's row stays locked by its worker until it
// ends; a process killed mid-seal leaves it locked, and graphile-worker frees such a row only after
// four hours, while the schedule queues nothing for an organization whose job exists: its log would
// go unsealed that long. So the job holds a session advisory lock while it seals, which PostgreSQL
// drops with the dead process's connection, and the schedule (digest-schedule.server.ts) counts a
// locked job as running only while that lock is held: otherwise it queues a new one (add_job then
// detaches the stale row's key). The writer is safe twice over (seal.server.ts), so a job queued
// in the moment between taking the row and taking the lock costs only a second look.
import { pool } from "~/db.server";

/** The advisory lock's first key: "sealing an organization's log" (the second: hashtext of its id). */
export const SEALING_LOCK_CLASS = 340_061;

/**
 * SQL true while some live session seals the organization whose id is `idSql` (text): the lock as
 * pg_locks shows a two-key advisory lock (objsubid 2; the keys as oids).
 */
export const sealingLockHeldSql = (idSql: string) => `EXISTS (
  SELECT 1 FROM pg_locks l
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
    AND l.classid = ${SEALING_LOCK_CLASS}::oid AND l.objid = hashtext(${idSql})::oid)`;

/** Runs `seal` holding the organization's sealing lock; null when another session holds it. */
export async function whileSealing<T>(organizationId: string, seal: () => Promise<T>): Promise<T | null> {
  const client = await pool().connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [
      SEALING_LOCK_CLASS,
      organizationId,
    ]);
    if (!rows[0]?.locked) return null;
    try {
      return await seal();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [SEALING_LOCK_CLASS, organizationId]);
    }
  } finally {
    client.release();
  }
}

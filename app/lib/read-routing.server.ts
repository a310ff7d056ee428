// Which server answers a read that a replica may serve: the audit list, detail, actors, chart and
// export, the revoked-key history, the support records list and the admin organization search
// (docs/decisions/0045-replica-reads.md). Everything else (writes, reads inside a transaction,
// sessions, apiKey.authenticate, which writes last used) stays on DATABASE_URL.
//
// The replica (DATABASE_READ_URL) answers when it is a hot standby that answered its last check,
// is at most DATABASE_READ_MAX_LAG_SECONDS behind, and has replayed the request's own writes: a
// request that may have written (a form post that succeeded, anything that recorded a change) is
// answered with a cookie holding the primary's WAL position after it; the next requests read the
// replica only once it has replayed that far. Otherwise the primary answers, and the metrics say why.
import type pg from "pg";
import { serialize } from "cookie";
import { exportPool, queryPrepared, replicaPools } from "~/db.server";
import { env, isHttpsDeployment } from "~/env.server";
import type { Prisma } from "~/generated/prisma/client";
import { countReplicaRead, type ReadRoute } from "~/metrics/replica-metrics.server";
import { readCookie } from "./cookies";
import { databaseUnavailableReason } from "./database-unavailable.server";
import { logger } from "./logger.server";
import { currentReadAfterLsn } from "./request-scope.server";
import { lagState, noteReplicaFailed, parseLsn, primaryPosition, replicaStatus } from "./replica-status.server";

/** How long the cookie holds a position. Long on purpose: a position the replica has replayed costs
 * nothing (the replica answers), and one it has not keeps the person's reads on the primary for
 * exactly as long as that is so, whatever the lag was measured as. */
const COOKIE_SECONDS = 3_600;
/** A position no replica reaches, for a minute: the primary did not say where it was, so the
 * person's reads go to the primary while any replica catches up with what they did. */
const UNKNOWN_POSITION = "FFFFFFFF/FFFFFFFF";
const UNKNOWN_POSITION_SECONDS = 60;

/** Skipping a lagging replica stops once it is this fraction of the bound behind, not at the bound:
 * a lag hovering at the bound must not send reads back and forth every second. */
const CAUGHT_UP_FRACTION = 0.5;
/** Where a read should go now, and why; a reason for the primary is counted here, a read on the
 * replica by its caller once it knows whether the replica answered. */
async function chooseRoute(replica: pg.Pool): Promise<ReadRoute> {
  const route = await routeNow(replica);
  if (route !== "replica") countReplicaRead(route);
  return route;
}

async function routeNow(replica: pg.Pool): Promise<ReadRoute> {
  const bound = env().DATABASE_READ_MAX_LAG_SECONDS;
  const status = await replicaStatus(replica, bound);
  if (status.condition !== "up") return status.condition;
  // The lag as it may be now: what the last check found, plus the time since (the replica may have
  // stopped replaying just after it).
  const lagSeconds = status.lagSeconds + (Date.now() - status.checkedAt) / 1000;
  const state = lagState(replica);
  const nowLagging = state.lagging ? lagSeconds > bound * CAUGHT_UP_FRACTION : lagSeconds > bound;
  if (nowLagging !== state.lagging) {
    state.lagging = nowLagging;
    if (nowLagging) logger.warn({ lagSeconds }, "replica lags beyond DATABASE_READ_MAX_LAG_SECONDS; its reads go to the primary");
    else logger.info({ lagSeconds }, "replica caught up; audit reads may go to it");
  }
  if (nowLagging) return "lagging";
  const readAfter = currentReadAfterLsn();
  return readAfter !== undefined && readAfter > status.replayLsn ? "read_your_writes" : "replica";
}

/** The replica itself failing (gone, restarting, refusing connections), rather than one query. */
function isReplicaDown(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return databaseUnavailableReason(error) !== null || code === "57P01" || code === "57P03";
}

/** Every connection of `pool` taken: a new request waits for one. */
function isFull(pool: pg.Pool): boolean {
  return pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? Number.POSITIVE_INFINITY);
}

/** queryPrepared (app/db.server.ts) on the replica when it may answer, else on the primary. A read
 * that fails on the replica, for whatever reason (the replica gone, a recovery conflict, a
 * migration it has not replayed yet during a deploy, a timeout), is answered by the primary. */
export async function readPrepared<T>(sql: Prisma.Sql): Promise<T[]> {
  const replica = replicaPools();
  if (!replica || (await chooseRoute(replica.reads)) !== "replica") return queryPrepared<T>(sql);
  const full = isFull(replica.reads);
  try {
    const rows = await queryPrepared<T>(sql, replica.reads);
    countReplicaRead("replica");
    return rows;
  } catch (error) {
    // A pool that was full timing out is a burst, not the replica failing.
    if (!full && isReplicaDown(error)) noteReplicaFailed(replica.reads, error);
    else
      logger.warn(
        { message: error instanceof Error ? error.message : String(error) },
        "a read failed on the replica; the primary answers it",
      );
    countReplicaRead("failed");
    return queryPrepared<T>(sql);
  }
}

/** An export's connection: the replica's export pool when it may answer, else the primary's. Its
 * pool being full is an answer (429, busy), as on the primary, not a replica failure. */
export async function connectForExport(): Promise<pg.PoolClient> {
  const replica = replicaPools();
  if (!replica || (await chooseRoute(replica.reads)) !== "replica") return exportPool().connect();
  const pool = replica.exports;
  const full = isFull(pool);
  try {
    const client = await pool.connect();
    countReplicaRead("replica");
    return client;
  } catch (error) {
    if (full || !isReplicaDown(error)) throw error;
    noteReplicaFailed(replica.reads, error);
    countReplicaRead("failed");
    return exportPool().connect();
  }
}

/** Secure (and __Host-) when the app is served over HTTPS, like the session cookie. */
function readAfterCookieName(): string {
  return isHttpsDeployment() ? "__Host-read_after" : "read_after";
}

/** The position the request's reads must see, from its cookie; undefined without a replica, a
 * cookie, or a readable one (a forged position only changes which server answers its sender). */
export function readAfterLsnFrom(cookieHeader: string | null | undefined): bigint | undefined {
  if (!env().DATABASE_READ_URL) return undefined;
  return parseLsn(readCookie(cookieHeader, readAfterCookieName())) ?? undefined;
}

/** The Set-Cookie for a request that may have written (a form post that succeeded, or anything that
 * recorded a change: asked once its answer is ready, so every write it made has committed); null
 * without a replica. */
export async function readYourWritesCookie(): Promise<string | null> {
  if (!env().DATABASE_READ_URL) return null;
  let position: string | undefined;
  try {
    position = await primaryPosition();
  } catch {
    // The primary did not say (in time): for a minute, this person's reads go to the primary.
  }
  return serialize(readAfterCookieName(), position ?? UNKNOWN_POSITION, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: isHttpsDeployment(),
    maxAge: position ? COOKIE_SECONDS : UNKNOWN_POSITION_SECONDS,
  });
}

// Which server answers a read that a replica may serve: the audit list, detail, actors, chart and
// export, the revoked-key history, the support records list and the admin organization search
// (docs/decisions/0045-replica-reads.md). Everything else (writes, reads inside a transaction,
// sessions, apiKey.authenticate, which writes last used) stays on DATABASE_URL.
//
// The replica (DATABASE_READ_URL) answers when it is a hot standby that answered its last check,
// is at most DATABASE_READ_MAX_LAG_SECONDS behind, and has replayed the request's own writes: a
// request that may have written (a form post, a signed-in RPC call) is answered with a short-lived
// cookie holding the primary's WAL position after it; the next requests read the replica only once
// it has replayed that far. Otherwise the primary answers, and the metrics say why.
import type pg from "pg";
import { serialize } from "cookie";
import { exportPool, pool, queryPrepared, replicaPools } from "~/db.server";
import { env } from "~/env.server";
import type { Prisma } from "~/generated/prisma/client";
import { countReplicaRead, type ReadRoute } from "~/metrics/replica-metrics.server";
import { readCookie } from "./cookies";
import { databaseUnavailableReason } from "./database-unavailable.server";
import { logger } from "./logger.server";
import { currentReadAfterLsn } from "./request-scope.server";
import { noteReplicaFailed, parseLsn, replicaStatus } from "./replica-status.server";

/** The cookie's lifetime beyond the lag bound: after the bound, the replica has either replayed the
 * write or is skipped for lagging anyway; the margin covers the once-a-second check. */
const COOKIE_MARGIN_SECONDS = 2;
/** A position no replica reaches: read the primary for the cookie's lifetime (the primary did not
 * say where it was). */
const UNKNOWN_POSITION = "FFFFFFFF/FFFFFFFF";

let lagging = false;

/** Where a read goes now, and why (counted in the metrics). */
async function chooseRoute(replica: pg.Pool): Promise<ReadRoute> {
  const status = await replicaStatus(replica);
  let route: ReadRoute;
  // The lag as it may be now: what the last check found, plus the time since (the replica may have
  // stopped replaying just after it).
  const lagSeconds = status.lagSeconds + (Date.now() - status.checkedAt) / 1000;
  if (status.condition !== "up") route = status.condition;
  else if (lagSeconds > env().DATABASE_READ_MAX_LAG_SECONDS) route = "lagging";
  else {
    const readAfter = currentReadAfterLsn();
    route = readAfter !== undefined && readAfter > status.replayLsn ? "read_your_writes" : "replica";
  }
  if ((route === "lagging") !== lagging && status.condition === "up") {
    lagging = route === "lagging";
    if (lagging)
      logger.warn({ lagSeconds }, "replica lags beyond DATABASE_READ_MAX_LAG_SECONDS; its reads go to the primary");
    else logger.info({ lagSeconds }, "replica caught up; audit reads may go to it");
  }
  countReplicaRead(route);
  return route;
}

/** The replica failing under a read (gone, restarting, a query cancelled by a recovery conflict):
 * the primary answers the read instead. Anything else is the read's own error. */
function isReplicaFailure(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return databaseUnavailableReason(error) !== null || code === "40001" || code === "57P01" || code === "57P03";
}

/** queryPrepared (app/db.server.ts) on the replica when it may answer, else on the primary. */
export async function readPrepared<T>(sql: Prisma.Sql): Promise<T[]> {
  const replica = replicaPools();
  if (!replica || (await chooseRoute(replica.reads)) !== "replica") return queryPrepared<T>(sql);
  try {
    return await queryPrepared<T>(sql, replica.reads);
  } catch (error) {
    if (!isReplicaFailure(error)) throw error;
    noteReplicaFailed(error);
    countReplicaRead("down");
    return queryPrepared<T>(sql);
  }
}

/** An export's connection: the replica's export pool when it may answer, else the primary's. */
export async function connectForExport(): Promise<pg.PoolClient> {
  const replica = replicaPools();
  if (!replica || (await chooseRoute(replica.reads)) !== "replica") return exportPool().connect();
  try {
    return await replica.exports.connect();
  } catch (error) {
    noteReplicaFailed(error);
    countReplicaRead("down");
    return exportPool().connect();
  }
}

/** Secure (and __Host-) when the app is served over HTTPS, like the session cookie. */
function readAfterCookieName(): string {
  return env().APP_ORIGIN?.startsWith("https://") ? "__Host-read_after" : "read_after";
}

/** The position the request's reads must see, from its cookie; undefined without a replica, a
 * cookie, or a readable one (a forged position only changes which server answers its sender). */
export function readAfterLsnFrom(cookieHeader: string | null | undefined): bigint | undefined {
  if (!env().DATABASE_READ_URL) return undefined;
  return parseLsn(readCookie(cookieHeader, readAfterCookieName())) ?? undefined;
}

/** The Set-Cookie for a request that may have written (asked once its answer is ready, so every
 * write it made has committed); null without a replica. */
export async function readYourWritesCookie(): Promise<string | null> {
  if (!env().DATABASE_READ_URL) return null;
  let position = UNKNOWN_POSITION;
  try {
    const { rows } = await pool().query<{ lsn: string }>("SELECT pg_current_wal_lsn()::text AS lsn");
    position = rows[0]?.lsn ?? UNKNOWN_POSITION;
  } catch {
    // The primary did not say: the cookie sends this person's reads to the primary for its lifetime.
  }
  return serialize(readAfterCookieName(), position, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: env().APP_ORIGIN?.startsWith("https://") ?? false,
    maxAge: env().DATABASE_READ_MAX_LAG_SECONDS + COOKIE_MARGIN_SECONDS,
  });
}

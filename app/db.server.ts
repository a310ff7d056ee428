// One pg.Pool per process, shared by Prisma (through its pg adapter) and by the few places that
// need raw SQL (rate limiter, hot paths), so the connection budget is one number; plus a small pool
// of its own for audit log exports, which hold a connection for as long as a download lasts and
// must never starve the pages (docs/decisions/0025-audit-export.md).
import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { type Prisma, PrismaClient } from "~/generated/prisma/client";
import { markingExpiry } from "~/db-errors.server";
import { env } from "~/env.server";

interface Db {
  pool: pg.Pool;
  prisma: PrismaClient;
  /** prisma's `$transaction`, marking an expired transaction's error (markingExpiry). */
  transaction: PrismaClient["$transaction"];
  exportPool?: pg.Pool;
  metricsPool?: pg.Pool;
  /** On DATABASE_READ_URL, when set: the audit reads' pool and the exports' (replicaPools()). */
  replica?: { reads: pg.Pool; exports: pg.Pool };
}

/** Exports running at once per process; more wait for a connection (app/audit/export/snapshot.server.ts). */
export const EXPORT_CONNECTIONS = 10;
/** How long an export waits for one of them before it is told to come back (429, Retry-After). */
export const EXPORT_CONNECTION_WAIT_MS = 30_000;

/**
 * How long a query waits for a connection: a new one to a server that does not answer, or a free
 * one from a full pool. Without it a request on a dead database waits forever; with it, it fails
 * and is answered 503 (app/lib/database-unavailable.server.ts, decision 0036). TCP keepalive finds
 * idle connections a dead server or a network path dropped without a word.
 */
const CONNECTION_OPTIONS = { connectionTimeoutMillis: 5_000, keepAlive: true } satisfies pg.PoolConfig;

/**
 * The role the app works as on every connection it opens (docs/decisions/0049-append-only-by-privileges.md):
 * it may not change or remove audit events or support records; the login in DATABASE_URL (which
 * ran the migrations and owns the tables) could. A connection whose SET ROLE fails is closed and
 * its query fails, so nothing ever runs as the owner by mistake. SET ROLE rather than the `options`
 * startup parameter, which PgBouncer refuses; PgBouncer's reset (DISCARD ALL) comes only when its
 * client, this pool's connection, goes, and a new connection sets the role again.
 */
export const APP_ROLE = "keyledger_app";
const onConnectRunning = (sql: string) => ({ onConnect: async (client: pg.ClientBase) => void (await client.query(sql)) });
const AS_APP_ROLE = onConnectRunning(`SET ROLE ${APP_ROLE}`) satisfies pg.PoolConfig;

/**
 * The longest any statement on the shared pool waits for a lock (decision 0070). A table lock held
 * by other work (a migration's ALTER TABLE, a maintenance LOCK, a transaction left open) would
 * otherwise hold a request until the lock goes, and an interactive transaction past its 5 s would
 * fail as expired. Under that 5 s, the wait ends with SQLSTATE 55P03, which the request answers
 * 503 with Retry-After (app/lib/database-unavailable.server.ts). Ordinary waits (two writers of one
 * organization, one row) last milliseconds.
 */
export const LOCK_TIMEOUT_MS = 3_000;

/** The shared pool's connections: the app's role, and no lock wait beyond LOCK_TIMEOUT_MS. One
 * round trip per new connection, nothing per statement. */
const SHARED_POOL_SESSION = onConnectRunning(`SET ROLE ${APP_ROLE}; SET lock_timeout = ${LOCK_TIMEOUT_MS}`) satisfies pg.PoolConfig;

/**
 * A hot statement's limit (pg's query_timeout): after 5 s without an answer it fails, and its
 * request is answered 503. apiKey.authenticate's, and queryPrepared's on the shared pool (the
 * session each signed-in request reads first, the pages' lists). A frozen database must not hold
 * integrators' calls and people's pages for as long as it lasts. These take milliseconds; 5 s is
 * over LOCK_TIMEOUT_MS, so a lock wait ends with the server's own error first. pool.query closes
 * the connection of a statement given up on; the database may still finish it (decision 0070).
 */
export const HOT_STATEMENT_LIMIT = { query_timeout: 5_000 };

const globalForDb = globalThis as typeof globalThis & { __db?: Db };

export type PoolName = "main" | "export" | "metrics" | "replica" | "replica-export";
type IdleClientErrorListener = (pool: PoolName, error: Error) => void;
let idleClientErrorListener: IdleClientErrorListener = () => {};

/** Where errors of idle pooled connections are reported: the server passes its JSON logger
 * (app/entry.server.tsx); this layer imports no logger, and scripts leave them unreported. */
export function reportIdleClientErrorsTo(listener: IdleClientErrorListener): void {
  idleClientErrorListener = listener;
}

/** An idle client that errors (e.g. the server restarted) must not crash the process. 57P01: the
 * server is shutting down (e.g. the embedded database stopping with the app): expected, not told. */
function reportIdleErrors(pool: pg.Pool, name: PoolName): void {
  pool.on("error", (error: Error & { code?: string }) => {
    if (error.code !== "57P01") idleClientErrorListener(name, error);
  });
}

/** For a pool whose clients are checked out by queries (not held, as an export holds one): idle
 * errors reported, and a checked-out client that errors (connection lost mid-query) must not crash
 * the process either: the query in flight fails with the error anyway. graphile-worker 0.18 insists
 * on this listener. */
function watchQueryPool(pool: pg.Pool, name: PoolName): void {
  reportIdleErrors(pool, name);
  pool.on("connect", (client) => client.on("error", () => {}));
}

/** A prepared statement's name, derived from its text: one per shape of a query. */
function preparedStatementName(text: string): string {
  return `p_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
}

/**
 * A statement sent through Prisma (inside its interactive transactions, where queryPrepared cannot
 * reach) that begins with this mark is sent as a named prepared statement, so PostgreSQL plans it
 * once per connection: the audit recorder's, whose four inserts cost more to plan than to run
 * (app/audit/rollups.server.ts). Every other Prisma statement stays unnamed: their shapes are many.
 */
export const PREPARE_THIS = "/* prepared */";

/** How the app's Prisma talks to its pool; the benchmarks build theirs with it too. An empty name
 * is node-postgres's unnamed statement. */
export const PRISMA_ADAPTER_OPTIONS = {
  statementNameGenerator: (query: { sql: string }) => (query.sql.startsWith(PREPARE_THIS) ? preparedStatementName(query.sql) : ""),
} satisfies ConstructorParameters<typeof PrismaPg>[1];

function createDb(): Db {
  const pool = new pg.Pool({
    connectionString: env().DATABASE_URL,
    max: env().DATABASE_POOL_SIZE,
    ...CONNECTION_OPTIONS,
    ...SHARED_POOL_SESSION,
  });
  watchQueryPool(pool, "main");
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, PRISMA_ADAPTER_OPTIONS) });
  return { pool, prisma, transaction: markingExpiry(prisma) };
}

function db(): Db {
  globalForDb.__db ??= createDb();
  return globalForDb.__db;
}

/** Created on first use, so importing this module never needs a configured environment. */
export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_, key) {
    if (key === "$transaction") return db().transaction;
    const client = db().prisma;
    const value = Reflect.get(client, key);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

export function pool(): pg.Pool {
  return db().pool;
}

/**
 * For the server, at start (app/web/warm-up.server.ts): opens `connections` of the pool's
 * connections now and keeps that many open while the server sits idle, and loads Prisma's query
 * compiler. Otherwise the first requests after a start, and the first after ten idle seconds (the
 * pool's idle timeout), each wait for a new connection (TCP, authentication, and their prepared
 * statements parsed and planned again), and the first Prisma query for the compiler's WebAssembly.
 * Scripts do not call it: their pools close idle connections, so a forgotten one does not keep a
 * command alive.
 */
export async function warmDatabase(connections: number): Promise<void> {
  const { pool, prisma } = db();
  const count = Math.min(connections, pool.options.max ?? connections);
  pool.options.min = count;
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  for (const client of clients) client.release();
  await prisma.$connect();
}

/** The exports' connections: at most EXPORT_CONNECTIONS, closed after a minute unused. */
export function exportPool(): pg.Pool {
  const current = db();
  if (!current.exportPool) {
    const created = new pg.Pool({
      connectionString: env().DATABASE_URL,
      max: EXPORT_CONNECTIONS,
      idleTimeoutMillis: 60_000,
      ...CONNECTION_OPTIONS,
      ...AS_APP_ROLE,
      connectionTimeoutMillis: EXPORT_CONNECTION_WAIT_MS,
    });
    reportIdleErrors(created, "export");
    current.exportPool = created;
  }
  return current.exportPool;
}

/** The audit reads take milliseconds; one that takes this long on a replica is a replica in trouble. */
const REPLICA_READ_LIMITS = { statement_timeout: 15_000, query_timeout: 20_000 } satisfies pg.PoolConfig;

/**
 * The replica's pools (DATABASE_READ_URL), or null when none is configured: the audit reads'
 * (DATABASE_READ_POOL_SIZE) and the exports' (EXPORT_CONNECTIONS, like exportPool's). Whether a
 * read may go there (lag, read-your-writes, the replica up) is app/lib/read-routing.server.ts's to say.
 */
export function replicaPools(): { reads: pg.Pool; exports: pg.Pool } | null {
  const url = env().DATABASE_READ_URL;
  if (!url) return null;
  const current = db();
  if (!current.replica) {
    // Named, so the replica's pg_stat_activity tells the app's reads apart.
    const options = { connectionString: url, application_name: "keyledger-replica-reads", ...CONNECTION_OPTIONS, ...AS_APP_ROLE };
    // A replica gone silent must not hold a page: its reads give up (and the primary answers them).
    const reads = new pg.Pool({ ...options, max: env().DATABASE_READ_POOL_SIZE, ...REPLICA_READ_LIMITS });
    // The usual 5 s connection timeout here: a replica that does not answer hands the export to the
    // primary's pool (which waits its 30 s for a free connection) rather than hold it.
    const exports = new pg.Pool({ ...options, max: EXPORT_CONNECTIONS, idleTimeoutMillis: 60_000 });
    // Watched as their twins on the primary are: the reads as the main pool, the exports as exportPool().
    watchQueryPool(reads, "replica");
    reportIdleErrors(exports, "replica-export");
    current.replica = { reads, exports };
  }
  return current.replica;
}

/** The metrics scrape's one connection (app/metrics/job-gauges.server.ts): its own, so the job
 * queue's figures still come when the main pool is exhausted, which is when they matter; every
 * query it runs is cut after a second, and a database that does not answer is given up on after
 * one, so a scrape always answers. */
export function metricsPool(): pg.Pool {
  const current = db();
  if (!current.metricsPool) {
    const created = new pg.Pool({
      connectionString: env().DATABASE_URL,
      max: 1,
      idleTimeoutMillis: 60_000,
      connectionTimeoutMillis: 1_000,
      statement_timeout: 1_000,
      query_timeout: 2_000,
      // Named, so an operator (and the outage test) can tell it apart in pg_stat_activity.
      application_name: "keyledger-metrics",
      ...AS_APP_ROLE,
    });
    reportIdleErrors(created, "metrics");
    current.metricsPool = created;
  }
  return current.metricsPool;
}

export interface PoolStatistics {
  /** Connections open, idle among them, and requests waiting for one (node-postgres's counts). */
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/** Each pool's counts, for the metrics; a pool not created yet is not created by asking. */
export function poolStatistics(): Record<PoolName, PoolStatistics> {
  const current = globalForDb.__db;
  const of = (p: pg.Pool | undefined, max: number): PoolStatistics =>
    p ? { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, max } : { total: 0, idle: 0, waiting: 0, max };
  return {
    main: of(current?.pool, env().DATABASE_POOL_SIZE),
    export: of(current?.exportPool, EXPORT_CONNECTIONS),
    metrics: of(current?.metricsPool, 1),
    replica: of(current?.replica?.reads, env().DATABASE_READ_POOL_SIZE),
    "replica-export": of(current?.replica?.exports, EXPORT_CONNECTIONS),
  };
}

/**
 * A read built with Prisma.sql, run as a named prepared statement on the shared pool, so
 * PostgreSQL plans it once per connection instead of once per request. For the hot reads whose
 * planning costs more than running them: the audit page's list joins names from five tables, and
 * planning it took 3-5 ms against well under 1 ms to run (docs/decisions/0024-audit-view-at-scale.md).
 * The name is derived from the text, so each shape of the query (filters present, direction) is
 * one statement. Values are parsed by node-postgres: int8 and numeric arrive as strings, so
 * cast counts to int in the SQL.
 */
export async function queryPrepared<T>(sql: Prisma.Sql, on: pg.Pool = pool()): Promise<T[]> {
  const name = preparedStatementName(sql.text);
  // A replica's pool keeps its own, longer limits: its reads fall back to the primary.
  const result = await on.query({ name, text: sql.text, values: sql.values, ...(on === pool() ? HOT_STATEMENT_LIMIT : {}) });
  return result.rows as T[];
}

/**
 * SQL for a text column read as a uuid when it holds one, else NULL, so ids of other kinds
 * ("system", an external id) never reach a cast that would fail. pg_input_is_valid (PostgreSQL
 * 16+) checks about 17 times faster than the regular expression it replaced, which was most of
 * the audit list's query time (up to six checks per row).
 */
export function uuidOrNull(column: string): string {
  return `(CASE WHEN pg_input_is_valid(${column}, 'uuid') THEN ${column}::uuid END)`;
}

export async function disconnectDb() {
  const current = globalForDb.__db;
  if (!current) return;
  globalForDb.__db = undefined;
  await current.prisma.$disconnect();
  await current.pool.end();
  await current.exportPool?.end();
  await current.metricsPool?.end();
  await current.replica?.reads.end();
  await current.replica?.exports.end();
}

export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

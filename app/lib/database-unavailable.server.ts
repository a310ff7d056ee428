// Tells "the database is unavailable" from a real fault, in one place (docs/decisions/0036-database-outages-answer-503.md).
// A request that fails because PostgreSQL is down, restarting, out of connections or out of disk
// is answered 503 with Retry-After, never 500: a load balancer and a client read 503 as "come
// back", 500 as "this app is broken".
//
// What arrives was found by provoking each case against a real PostgreSQL 17 through pg 8 and
// Prisma 7 with @prisma/adapter-pg (the shapes are kept in database-unavailable.fixtures.json and
// tested in database-unavailable.server.test.ts):
// - pg itself: socket errors (ECONNREFUSED, ENOTFOUND...), the server's own errors with a SQLSTATE
//   (57P01 when it shuts down, 57P03 while it starts, 53300 when out of connections), and plain
//   Errors with no code for a connection that died mid-query ("Connection terminated
//   unexpectedly", what an immediate shutdown or a crash gives), a connection timeout and a pool
//   that could not hand out a connection in time;
// - Prisma: a PrismaClientKnownRequestError (P1001 unreachable, P2037 too many connections, P2010
//   for a raw query) whose meta.driverAdapterError.cause carries the adapter's `kind` and the
//   server's `originalCode`; or pg's plain Error passed through with a clientVersion added.

/** Why the database could not serve the request (the warn line names it). */
export type DatabaseUnavailableReason =
  | "unreachable"
  | "connectionLost"
  | "timeout"
  | "shuttingDownOrStarting"
  | "tooManyConnections"
  | "outOfResources"
  /** A statement waited LOCK_TIMEOUT_MS for a lock other work holds (app/db.server.ts). */
  | "lockTimeout"
  /** An interactive transaction ran past its timeout: the database did not finish its statements in time. */
  | "transactionExpired";

/** Seconds a client is asked to wait (Retry-After): a restart or a failover takes a few. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const SOCKET_CODES: Record<string, DatabaseUnavailableReason> = {
  ECONNREFUSED: "unreachable",
  ENOTFOUND: "unreachable",
  EAI_AGAIN: "unreachable",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  EHOSTDOWN: "unreachable",
  ENETDOWN: "unreachable",
  ECONNRESET: "connectionLost",
  ECONNABORTED: "connectionLost",
  EPIPE: "connectionLost",
  ETIMEDOUT: "timeout",
};

/** @prisma/adapter-pg's DriverAdapterError kinds. */
const ADAPTER_KINDS: Record<string, DatabaseUnavailableReason> = {
  DatabaseNotReachable: "unreachable",
  ConnectionClosed: "connectionLost",
  SocketTimeout: "timeout",
  TooManyConnections: "tooManyConnections",
};

/** Prisma's own codes for the same conditions (P1xxx from the connector, P2024 a pool timeout). */
const PRISMA_CODES: Record<string, DatabaseUnavailableReason> = {
  P1001: "unreachable",
  P1002: "timeout",
  P1008: "timeout",
  P1017: "connectionLost",
  P2024: "timeout",
  P2037: "tooManyConnections",
};

/** pg's errors without a code, by their exact message (pg/lib/client.js and pg-pool). */
const PG_MESSAGES: [RegExp, DatabaseUnavailableReason][] = [
  [/^Connection terminated unexpectedly$/, "connectionLost"],
  [/^Connection terminated$/, "connectionLost"],
  [/^Client has encountered a connection error and is not queryable$/, "connectionLost"],
  [/^Connection terminated due to connection timeout$/, "timeout"],
  // A bare pg.Client's connectionTimeoutMillis (the start's wait for the database): the server
  // accepted the connection, or dropped the packets, and did not answer in time.
  [/^timeout expired$/, "timeout"],
  [/^timeout exceeded when trying to connect$/, "timeout"],
  // A statement's query_timeout (app/db.server.ts, HOT_STATEMENT_LIMIT): no answer in time.
  [/^Query read timeout$/, "timeout"],
];

/** A SQLSTATE that means the server cannot serve now, not that the statement is wrong. */
function reasonOfSqlState(code: string): DatabaseUnavailableReason | null {
  if (code === "53300") return "tooManyConnections";
  // 53100 disk full, 53200 out of memory, 53400 configuration limit exceeded.
  if (/^53[0-9A-Z]{3}$/.test(code)) return "outOfResources";
  // Class 08: connection exceptions (including 08006 connection failure, 08001 cannot connect).
  if (/^08[0-9A-Z]{3}$/.test(code)) return "connectionLost";
  // 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now (starting, recovery).
  if (code === "57P01" || code === "57P02" || code === "57P03") return "shuttingDownOrStarting";
  // lock_not_available: lock_timeout ended a wait for a lock that other work holds.
  if (code === "55P03") return "lockTimeout";
  return null;
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
}

function reasonOfOne(error: object): DatabaseUnavailableReason | null {
  // Whatever an interactive transaction failed with once it had run past its timeout (the prisma
  // client of app/db.server.ts marks it).
  if (typeof field(error, "transactionExpiredAfterMs") === "number") return "transactionExpired";
  const code = field(error, "code");
  const message = field(error, "message");
  if (typeof code === "string") {
    const reason = SOCKET_CODES[code] ?? PRISMA_CODES[code] ?? reasonOfSqlState(code);
    if (reason) return reason;
    // Prisma could not start an interactive transaction within maxWait: the pool had no
    // connection to give. Or the transaction expired: its statements waited on a database that
    // stopped answering (decision 0070; lock waits end sooner, as lockTimeout). The other P2028
    // cases (a transaction used after its commit, an internal inconsistency) are our own faults.
    if (code === "P2028" && typeof message === "string") {
      if (message.includes("Unable to start a transaction in the given time")) return "timeout";
      if (message.includes("cannot be executed on an expired transaction")) return "transactionExpired";
    }
  }
  const errorCode = field(error, "errorCode"); // PrismaClientInitializationError
  if (typeof errorCode === "string" && PRISMA_CODES[errorCode]) return PRISMA_CODES[errorCode];
  const kind = field(error, "kind");
  if (typeof kind === "string" && ADAPTER_KINDS[kind]) return ADAPTER_KINDS[kind];
  const originalCode = field(error, "originalCode");
  if (typeof originalCode === "string") return reasonOfSqlState(originalCode);
  if (typeof message === "string") for (const [pattern, reason] of PG_MESSAGES) if (pattern.test(message)) return reason;
  return null;
}

/** The errors an error wraps: its cause, Prisma's driver adapter error and its cause, and the
 * attempts of an AggregateError (Node's connect to a name with several addresses). */
function wrapped(error: object): unknown[] {
  const errors = field(error, "errors");
  return [
    field(error, "cause"),
    field(field(error, "meta"), "driverAdapterError"),
    ...(Array.isArray(errors) ? (errors as unknown[]) : []),
  ];
}

/** Why `error` means the database is unavailable, or null for anything else (a real fault). */
export function databaseUnavailableReason(error: unknown): DatabaseUnavailableReason | null {
  const pending: unknown[] = [error];
  const seen = new Set<object>();
  while (pending.length > 0 && seen.size < 16) {
    const current = pending.shift();
    if (current === null || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    const reason = reasonOfOne(current);
    if (reason) return reason;
    pending.push(...wrapped(current));
  }
  return null;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseUnavailableReason(error) !== null;
}

// At boot, the database may not be up yet (containers started together, a server restarting):
// the start waits for it instead of failing at the first refused connection, says every few
// seconds what it waits for and why (host:port and the reason, never the password), and gives up
// after a bounded time with a clear message (docs/decisions/0036-database-outages-answer-503.md).
// Only an outage is waited out: a wrong password or an unknown database will not get better, so
// those stop the start at once.
import pg from "pg";
import { ConfigError } from "../../app/env.server.ts";
import { databaseUnavailableReason } from "../../app/lib/database-unavailable.server.ts";

export interface WaitForDatabaseOptions {
  url: string;
  /** Give up after this long (DATABASE_WAIT_SECONDS); 0 tries once. */
  timeoutSeconds: number;
  /** Stops the wait (SIGTERM during start-up): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Between attempts. */
  intervalMs?: number;
  /** Between two "still waiting" lines. */
  reportEveryMs?: number;
}

/** host:port of a connection URL, for messages: the URL itself carries the password. */
export function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || "localhost"}:${parsed.port || "5432"}`;
  } catch {
    return "the configured address";
  }
}

const SOCKET_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ECONNRESET: "connection reset",
  ETIMEDOUT: "connection timed out",
};

/** Why an attempt failed, in words: the socket error's meaning or the server's own message. */
function reasonText(error: unknown): string {
  const { code, message, errors } = (error ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === "string" && SOCKET_WORDS[code]) return `${SOCKET_WORDS[code]} (${code})`;
  if (Array.isArray(errors) && errors.length > 0) return reasonText(errors[0]);
  if (message === "timeout expired") return "no answer in time (timeout expired)";
  const text = typeof message === "string" && message ? message : String(error);
  return typeof code === "string" ? `${text} (${code})` : text;
}

async function attempt(url: string, timeoutMs: number): Promise<void> {
  // A server that accepts and then stops answering (frozen) fails the attempt too, in the same time.
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on("error", () => {}); // a connection that dies after the attempt is no concern here
  try {
    await client.connect();
    await client.query("SELECT 1");
  } finally {
    await client.end().catch(() => {});
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Resolves once the database accepts a connection and answers a query. */
export async function waitForDatabase(options: WaitForDatabaseOptions): Promise<void> {
  const { url, timeoutSeconds, signal, log = console.log, intervalMs = 1_000, reportEveryMs = 5_000 } = options;
  const address = databaseAddress(url);
  const startedAt = Date.now();
  const deadline = startedAt + timeoutSeconds * 1000;
  let lastReport = -Infinity;
  for (;;) {
    signal?.throwIfAborted();
    try {
      await attempt(url, Math.max(1_000, Math.min(5_000, deadline - Date.now())));
      if (Number.isFinite(lastReport))
        log(`The database at ${address} is reachable (after ${((Date.now() - startedAt) / 1000).toFixed(1)} s).`);
      return;
    } catch (error) {
      signal?.throwIfAborted();
      const reason = reasonText(error);
      if (!databaseUnavailableReason(error)) throw new ConfigError(`Cannot use the database at ${address}: ${reason}. Check DATABASE_URL.`);
      const left = Math.ceil((deadline - Date.now()) / 1000);
      if (left <= 0) {
        throw new ConfigError(
          `The database at ${address} did not accept connections within ${timeoutSeconds} s: ${reason}. ` +
            "Start it, or check DATABASE_URL; DATABASE_WAIT_SECONDS sets how long to wait.",
        );
      }
      if (Date.now() - lastReport >= reportEveryMs) {
        log(`Waiting for the database at ${address}: ${reason}. Trying again for up to ${left} s more…`);
        lastReport = Date.now();
      }
    }
    await pause(Math.min(intervalMs, Math.max(0, deadline - Date.now())), signal);
  }
}

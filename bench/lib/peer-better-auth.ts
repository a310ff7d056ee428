// The better-auth peer (bench/peers/better-auth): better-auth 1.7.5 with @better-auth/api-key 1.7.5
// verifying keys on the benchmark's PostgreSQL. It has its own package.json and lock, installed here
// on demand, so its dependencies never enter the project's own install, lint or tests.
import { execFileSync, fork, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../../scripts/lib/free-port.ts";

export const PEER_DIR = join(import.meta.dirname, "..", "peers", "better-auth");
/** Inside node_modules, so deleting node_modules also forgets what was installed. */
const STAMP = join(PEER_DIR, "node_modules", ".keyledger-lock-sha256");
const PEER_DATABASE = "bench_peer";

const lockHash = () =>
  createHash("sha256")
    .update(readFileSync(join(PEER_DIR, "package-lock.json")))
    .digest("hex");

/** Runs `npm ci` in the peer's folder when its node_modules is missing or was installed from another lock. */
export function ensurePeerInstalled(): void {
  const wanted = lockHash();
  const installed = existsSync(STAMP) ? readFileSync(STAMP, "utf8").trim() : null;
  if (installed === wanted) return;
  const why = installed === null ? "not installed yet" : "its package-lock.json changed since the last install";
  console.log(`better-auth peer ${why}: running \`npm ci\` in bench/peers/better-auth (npm registry)…`);
  // No dependency of the peer needs an install script.
  execFileSync("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], { cwd: PEER_DIR, stdio: "inherit" });
  writeFileSync(STAMP, `${wanted}\n`);
}

export interface BetterAuthPeer {
  /** POST here with `Authorization: Bearer <key>`: 200 for a valid key, 401 otherwise. */
  url: string;
  child: ChildProcess;
  /** The plaintext keys better-auth created, all valid. */
  keys: string[];
}

/** The peer's own database beside the one the URL names, on the same server, made afresh. */
async function createPeerDatabase(adminDatabaseUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${PEER_DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${PEER_DATABASE}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${PEER_DATABASE}`;
  return url.toString();
}

/** Runs setup.js (migration and keys); resolves with what it printed on stdout, its progress shown. */
function setUp(env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, [join(PEER_DIR, "setup.js")], { cwd: PEER_DIR, env, stdio: ["ignore", "pipe", "inherit"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks).toString("utf8"))
        : reject(new Error(`the better-auth peer's setup.js exited with ${code}`)),
    );
  });
}

/**
 * Creates the peer's database on the PostgreSQL of `adminDatabaseUrl`, migrates it with
 * better-auth's own migration, has better-auth create `keyCount` keys, and starts the peer server
 * (plain `node`, a child process of its own). Stop it with stopChild from ./servers.ts.
 */
export async function startBetterAuthPeer(
  adminDatabaseUrl: string,
  options: { keyCount?: number; poolSize?: number; nodeArgs?: string[] } = {},
): Promise<BetterAuthPeer> {
  ensurePeerInstalled();
  const databaseUrl = await createPeerDatabase(adminDatabaseUrl);
  const env = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production" };
  const keys = JSON.parse(await setUp({ ...env, KEY_COUNT: String(options.keyCount ?? 1000) })) as string[];

  const port = await freePort();
  const child = fork(join(PEER_DIR, "server.js"), [], {
    cwd: PEER_DIR,
    env: { ...env, PORT: String(port), DATABASE_POOL_SIZE: String(options.poolSize ?? 20) },
    // Plain node: not the tsx loader this process may run under.
    execArgv: options.nodeArgs ?? [],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the better-auth peer did not start in 60 s")), 60_000);
    child.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => reject(new Error(`the better-auth peer exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/verify`, child, keys };
}

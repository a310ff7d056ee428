// Starts the real production server (scripts/start.ts over the build) as a child process against
// this test file's database, and keeps everything it prints, so tests can read its logs.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../scripts/lib/free-port.ts";
import { hasBuild, spawnBuiltApp } from "../built-app.ts";
import { childrenOf } from "./server-process.ts";

export interface ProductionServer {
  origin: string;
  port: number;
  child: ChildProcess;
  /** Where its mail goes, as .eml files (tests/production/outbox.ts reads them). */
  outboxDir: string;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  /** What it printed on stdout alone (the log lines). */
  stdout(): string;
  /** Its JSON log lines so far (of all it printed), parsed. */
  logLines(): Record<string, unknown>[];
  /** Resident memory of the server process, in bytes (Linux). */
  residentBytes(): number;
  stop(): Promise<void>;
}

/** `env` adds to (or overrides) what the server is started with, e.g. a webhook secret or a name
 * for its connections (PGAPPNAME) so a test can tell two instances apart in pg_stat_activity. */
export async function startProductionServer(databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<ProductionServer> {
  if (!hasBuild()) throw new Error("No build: run `npm run build` first (`npm test` does).");
  const port = await freePort();
  // Mail in a folder of this run, never the repository's .data/outbox.
  const outboxDir = join(tmpdir(), `keyledger-outbox-${port}`);
  let output = "";
  let stdout = "";
  const child = spawnBuiltApp(
    { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info", APP_ORIGIN: "", ...env },
    { outboxDir, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    stdout += chunk.toString("utf8");
  });
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited during start-up:\n${output}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server did not start within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    origin,
    port,
    child,
    outboxDir,
    output: () => output,
    stdout: () => stdout,
    logLines: () =>
      output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    residentBytes: () => {
      // The process that listens (the start runs in the spawned process; a child is counted in case it ever is not).
      const pids = [child.pid!, ...descendantsOf(child.pid!)];
      return Math.max(...pids.map(residentOf));
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** Every process under `pid`: its children, theirs, and so on. */
function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

function residentOf(pid: number): number {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return Number(line?.match(/\d+/)?.[0] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

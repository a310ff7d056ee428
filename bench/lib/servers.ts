// Servers for the benchmarks, each in a child process of its own so the load generator does not
// share its event loop. A server script (bench/servers/*.ts) sends one IPC message when it listens.
import { execFileSync, fork, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildIsCurrent } from "../../scripts/build-stamp.mjs";

export async function startChild(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(import.meta.dirname, "..", "servers", script), [], {
    env: { ...process.env, ...env },
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server, for looking into a regression.
    execArgv: ["--import", "tsx", ...(env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", env.BENCH_CPU_PROF] : [])],
    // The app logs one JSON line per request to stdout, as in production; here they go to
    // /dev/null (the cost of writing them is measured, the terminal is spared). Errors still show.
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 60 s`)), 60_000);
    child.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return child;
}

export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

const ROOT = join(import.meta.dirname, "..", "..");

/** The benchmarks measure the production build of these sources: made here when build/ is missing
 * or older than the sources (the same rule as `npm start`). */
export function ensureBuild(): void {
  if (buildIsCurrent(ROOT, true)) return;
  console.log("No current build: running `npm run build`…");
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
}

export interface ProductionServer {
  child: ChildProcess;
  url: string;
}

/**
 * `node build/node/start.js` of the checkout at `root` (this one, or a previous release built by
 * bench/lib/previous-release.ts): the production start as operators run it, worker and per-request
 * log lines included (written to a pipe, read and dropped here: their cost is measured). Resolves
 * once /readyz answers 200.
 */
export async function startProductionServer(
  root: string,
  env: Record<string, string>,
  options: { nodeArgs?: string[] } = {},
): Promise<ProductionServer> {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(root, "build", "node", "start.js")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      SMTP_URL: "",
      MAIL_OUTBOX_DIR: join(root, ".data", "bench-outbox"),
      ...env,
    },
    // Its log lines go to a pipe, as under a process manager; the last few are kept for an error.
    stdio: ["ignore", "pipe", "inherit"],
  });
  let tail = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-4096);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${root}: the production start exited with ${child.exitCode}:\n${tail}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { child, url };
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${root}: the production start was not ready in 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** CPU time (user + system) a process has used, in ms (Linux counts it in 10 ms clock ticks). */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

// Servers for the benchmarks, each in a child process of its own so the load generator does not
// share its event loop. A server script (bench/servers/*.ts) sends one IPC message when it listens.
import { execFileSync, fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export async function startChild(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = fork(join(import.meta.dirname, "..", "servers", script), [], {
    env: { ...process.env, ...env },
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server, for looking into a regression.
    execArgv: ["--import", "tsx", ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_CPU_PROF] : [])],
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

/** The benchmarks measure the production build: made here when build/ is missing. */
export function ensureBuild(): void {
  if (existsSync(join(ROOT, "build", "server", "index.js")) && existsSync(join(ROOT, "build", "node", "start.js"))) return;
  console.log("No build found: running `npm run build`…");
  execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
}

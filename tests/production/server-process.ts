// Signals for the server itself, as an orchestrator sends them to a container's PID 1: the innermost
// Node process of the tree (the one that listens). The production start is `node` itself today, but a
// wrapper in between (`tsx` relays a signal and kills its child outright unless the child reports it
// in time; `npm` relays it) must not decide what the test sees.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

/** The processes `pid` started itself (its direct children), from /proc; none once it is gone. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function commandLine(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return null;
  }
}

/** The innermost Node process started for `child` (itself when it runs the server directly). */
export function serverPid(child: ChildProcess): number {
  let pid = child.pid!;
  for (;;) {
    const parent = commandLine(pid);
    const node = childrenOf(pid).find((candidate) => {
      const line = commandLine(candidate);
      // The program, not the thread name (Node names its main thread "MainThread"). A child whose
      // whole command line is its parent's is a fork that has not yet become its program (the server
      // running `id -u postgres` for the embedded database): signalling it would kill that command.
      return line !== null && line !== parent && line.split("\0")[0] === process.execPath;
    });
    if (node === undefined) return pid;
    pid = node;
  }
}

export function signalServer(child: ChildProcess, signal: NodeJS.Signals): void {
  process.kill(serverPid(child), signal);
}

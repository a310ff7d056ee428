// Signals for the server itself, as an orchestrator sends them to a container's PID 1: the innermost
// Node process of the tree (the one that listens). The production start is `node` itself today, but a
// wrapper in between (`tsx` relays a signal and kills its child outright unless the child reports it
// in time; `npm` relays it) must not decide what the test sees.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The innermost Node process started for `child` (itself when it runs the server directly). */
export function serverPid(child: ChildProcess): number {
  let pid = child.pid!;
  for (;;) {
    const node = childrenOf(pid).find((candidate) => {
      try {
        // The program, not the thread name (Node names its main thread "MainThread").
        return readFileSync(`/proc/${candidate}/cmdline`, "utf8").split("\0")[0] === process.execPath;
      } catch {
        return false;
      }
    });
    if (node === undefined) return pid;
    pid = node;
  }
}

export function signalServer(child: ChildProcess, signal: NodeJS.Signals): void {
  process.kill(serverPid(child), signal);
}

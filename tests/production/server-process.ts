// Signals for the server itself. `tsx` runs scripts/start.ts in a child process of its own and,
// handed a signal, relays it and kills its child outright unless the child reports the signal in
// time; an orchestrator signals the server's own process. So the tests signal the innermost
// process of the tree (the one that listens), as a container's PID 1 would be signalled.
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

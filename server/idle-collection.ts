// A full garbage collection while the server sits idle, rather than in the first requests after it
// (docs/decisions/0067-idle-garbage-collection.md). V8 collects the old generation when it reaches
// a limit; a server that served a while and then went quiet stops just short of it, with a
// collection already under way that only allocation finishes, so the first few requests after the
// pause paid its 7 ms pause and 10-20 ms of marking steps. Collected during the pause instead, the
// heap starts the next busy period compacted, with its limit far off.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** V8's full collection. The production start runs as `node build/node/start.js`, without
 * `--expose-gc`: the flag is set now, and a new context is created with `gc` on its global. */
export function exposedGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

export interface IdleCollection {
  /** Called for every request: the server is not idle. */
  noteRequest(): void;
  stop(): void;
}

/**
 * Runs `gc` once the server has had no request for `quietChecks` checks in a row, `intervalMs`
 * apart, and only if requests came since the last collection: a server idle for hours collects
 * once, not every few seconds. The timer does not keep the process alive.
 */
export function collectWhenIdle(gc: () => void, { intervalMs = 1_000, quietChecks = 2 } = {}): IdleCollection {
  let requestedSinceCheck = false;
  let servedSinceCollection = false;
  let quiet = 0;
  const timer = setInterval(() => {
    if (requestedSinceCheck) {
      requestedSinceCheck = false;
      servedSinceCollection = true;
      quiet = 0;
      return;
    }
    if (!servedSinceCollection || ++quiet < quietChecks) return;
    servedSinceCollection = false;
    quiet = 0;
    gc();
  }, intervalMs);
  timer.unref();
  return {
    noteRequest: () => {
      requestedSinceCheck = true;
    },
    stop: () => clearInterval(timer),
  };
}

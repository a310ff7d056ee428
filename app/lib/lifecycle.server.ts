// This process's place in its life, as the request edge, the audit export and the readiness check
// need to know it (docs/decisions/0037-health-readiness-and-drain.md). The server in server/ moves
// it along through the server hooks (app/edge/server-hooks.ts): the worker started, draining began
// (SIGTERM), the grace period for long answers ran out. One instance per app bundle, so every
// request of this process sees the same state.

type Listener = () => void;

const state = {
  workerRunning: false,
  draining: false,
  streamsEnded: false,
};
const streamEnders = new Set<Listener>();

/** The job worker started (true) or stopped, by request or by failure (false). */
export function setWorkerRunning(running: boolean): void {
  state.workerRunning = running;
}

export function workerRunning(): boolean {
  return state.workerRunning;
}

/** SIGTERM arrived: from now on the instance is not ready, and every answer closes its connection. */
export function beginDraining(): void {
  state.draining = true;
}

export function isDraining(): boolean {
  return state.draining;
}

/**
 * A long answer (the audit export's stream) asks to be told when it must end: `end` runs once,
 * when the shutdown's grace period is over, or at once when it already is. Returns the function
 * that takes the request back (the answer finished by itself).
 */
export function whenStreamsMustEnd(end: Listener): () => void {
  if (state.streamsEnded) {
    end();
    return () => {};
  }
  streamEnders.add(end);
  return () => streamEnders.delete(end);
}

/** The grace period is over: every long answer still running ends now. Returns how many did. */
export function endStreams(): number {
  state.streamsEnded = true;
  const enders = [...streamEnders];
  streamEnders.clear();
  for (const end of enders) end();
  return enders.length;
}

/** Long answers running now (the shutdown log says how many it waits for). */
export function streamsRunning(): number {
  return streamEnders.size;
}

/** Back to a fresh process (tests only). */
export function resetLifecycleForTests(): void {
  Object.assign(state, { workerRunning: false, draining: false, streamsEnded: false });
  streamEnders.clear();
}

// The shutdown's decisions on paths a real server reaches only by bad luck (server/shutdown.ts):
// an export still streaming when a second Ctrl-C arrives, a signal while the database stops after
// a failed start, SIGHUP. A fake server and process stand in, so each path is taken for sure.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { installShutdown } from "../../server/shutdown.ts";

function harness() {
  const target = new EventEmitter() as unknown as NodeJS.Process;
  const events: string[] = [];
  let exited: (code: number) => void = () => {};
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  const logger = { info: () => {}, warn: () => {}, error: () => {} };
  const shutdown = installShutdown({
    target,
    say: () => {},
    exit: (code) => exited(code),
    stopDatabase: async () => {
      events.push("database stopped");
    },
  });
  return { target, events, exitCode, shutdown, logger };
}

/** A server whose last connection never ends by itself: an export still streaming. */
function streamingServer(events: string[]) {
  return {
    close: () => events.push("listener closed"),
    closeAllConnections: () => events.push("connections closed"),
  };
}

describe("the shutdown", () => {
  it("still ends running exports with their interruption line when a second SIGINT cuts the waits", async () => {
    const { target, events, exitCode, shutdown, logger } = harness();
    shutdown.running({
      server: streamingServer(events) as never,
      hooks: {
        logger,
        flushLogs: async () => void events.push("logs flushed"),
        lifecycle: {
          beginDraining: () => events.push("draining"),
          streamsRunning: () => 1,
          endStreams: () => events.push("exports ended"),
        },
      } as never,
      worker: { stop: async () => {} },
      close: async () => {},
      drainMs: 60_000,
      graceMs: 60_000,
    });
    target.emit("SIGINT", "SIGINT");
    setTimeout(() => target.emit("SIGINT", "SIGINT"), 50);
    expect(await exitCode).toBe(0);
    expect(events).toEqual(["draining", "listener closed", "exports ended", "connections closed", "database stopped", "logs flushed"]);
  }, 20_000);

  it("exits 1 after a failed start even when a signal arrives while the database stops", async () => {
    const { target, exitCode, shutdown } = harness();
    const failed = shutdown.startFailed(new Error("a migration failed"), () => target.emit("SIGTERM", "SIGTERM"));
    await failed;
    expect(await exitCode).toBe(1);
  });

  it("takes SIGHUP (a closed terminal) as a request to stop, like SIGTERM", async () => {
    const { target, events, exitCode, shutdown, logger } = harness();
    shutdown.running({
      server: { close: (done: () => void) => done(), closeAllConnections: () => {} } as never,
      hooks: {
        logger,
        flushLogs: async () => {},
        lifecycle: { beginDraining: () => events.push("draining"), streamsRunning: () => 0, endStreams: () => 0 },
      } as never,
      worker: { stop: async () => {} },
      close: async () => {},
      drainMs: 0,
      graceMs: 0,
    });
    target.emit("SIGHUP", "SIGHUP");
    expect(await exitCode).toBe(0);
    expect(events).toEqual(["draining", "database stopped"]);
  });
});

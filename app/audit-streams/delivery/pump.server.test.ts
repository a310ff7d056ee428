// The pump's life: it ticks until stopped, a failed tick is logged and the next one runs, a
// draining process queues nothing, and stop() waits for the tick in progress.
import { afterEach, describe, expect, it, vi } from "vitest";
import { beginDraining, resetLifecycleForTests } from "~/lib/lifecycle.server";
import { AHEAD_CHECK_MS } from "~/jobs/periodic-ticks.server";
import { startPump as startPumpWith } from "./pump.server";

/** The pump with the restore check finding nothing (its own test below passes one that does). */
const startPump = (logger: { warn: () => void; error: () => void }, intervalMs: number, pump: () => Promise<number>) =>
  startPumpWith(logger, intervalMs, pump, async () => 0);

const quietLogger = () => ({ warn: vi.fn(), error: vi.fn() });
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
};

afterEach(() => resetLifecycleForTests());

describe("startPump", () => {
  it("logs a failed tick and goes on with the next; stop() ends the ticks", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const stop = startPump(logger, 1, async () => {
      ticks++;
      if (ticks === 1) throw Object.assign(new Error("boom"), { code: "XX000" });
      return 0;
    });
    await until(() => ticks >= 3);
    await stop();
    const stoppedAt = ticks;
    expect(logger.error).toHaveBeenCalledWith({ err: { message: "boom", code: "XX000" } }, "audit stream pump tick failed");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ticks).toBe(stoppedAt);
  });

  it("logs a database outage as a warning", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const stop = startPump(logger, 1, async () => {
      ticks++;
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    });
    await until(() => ticks >= 2);
    await stop();
    expect(logger.warn).toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("waits for the tick in progress when stopped", async () => {
    let finish!: () => void;
    let started = false;
    let finished = false;
    const stop = startPump(quietLogger(), 1, async () => {
      started = true;
      await new Promise<void>((resolve) => (finish = resolve));
      finished = true;
      return 0;
    });
    await until(() => started);
    const stopped = stop();
    finish();
    await stopped;
    expect(finished).toBe(true);
  });

  it("queues nothing while the process drains", async () => {
    beginDraining();
    const pump = vi.fn(async () => 0);
    const stop = startPump(quietLogger(), 1, pump);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await stop();
    expect(pump).not.toHaveBeenCalled();
  });

  it("logs an error while streams' cursors are ahead of the database's transaction ids, at most once per check interval", async () => {
    const logger = quietLogger();
    let checks = 0;
    let ticks = 0;
    const stop = startPumpWith(
      logger,
      1,
      async () => ++ticks,
      async () => {
        checks++;
        return 2;
      },
    );
    await until(() => ticks >= 5);
    await stop();
    expect(checks).toBe(1);
    expect(AHEAD_CHECK_MS).toBeGreaterThan(60_000);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith({ streams: 2 }, expect.stringContaining("restored from a logical dump"));
  });
});

// The ticks' life (the audit streams' pump and the audit digests' schedule run on them): they tick
// until stopped, a failed tick is logged and the next one runs, an outage is a warning, a draining
// process queues nothing, stop() waits for the tick in progress, and the restore check runs at
// most once per AHEAD_CHECK_MS.
import { afterEach, describe, expect, it, vi } from "vitest";
import { beginDraining, resetLifecycleForTests } from "~/lib/lifecycle.server";
import { AHEAD_CHECK_MS, startPeriodicTicks } from "./periodic-ticks.server";
import { quietLogger, until } from "./periodic-ticks.test-support";

/** Ticks every millisecond, with the restore check finding nothing unless given one. */
const start = (logger: ReturnType<typeof quietLogger>, work: () => Promise<unknown>, aheadOfDatabase = async () => 0) =>
  startPeriodicTicks(logger, {
    work,
    aheadOfDatabase,
    aheadError: (ahead) => [{ things: ahead }, "things are ahead"],
    failure: "tick failed",
    firstDelayMs: 1,
    nextDelayMs: () => 1,
  });

afterEach(() => resetLifecycleForTests());

describe("startPeriodicTicks", () => {
  it("logs a failed tick and goes on with the next; stop() ends the ticks", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const stop = start(logger, async () => {
      ticks++;
      if (ticks === 1) throw Object.assign(new Error("boom"), { code: "XX000" });
    });
    await until(() => ticks >= 3);
    await stop();
    const stoppedAt = ticks;
    expect(logger.error).toHaveBeenCalledWith({ err: { message: "boom", code: "XX000" } }, "tick failed");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ticks).toBe(stoppedAt);
  });

  it("logs a database outage as a warning and carries on", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const stop = start(logger, async () => {
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
    const stop = start(quietLogger(), async () => {
      started = true;
      await new Promise<void>((resolve) => (finish = resolve));
      finished = true;
    });
    await until(() => started);
    const stopped = stop();
    finish();
    await stopped;
    expect(finished).toBe(true);
  });

  it("queues nothing while the process drains", async () => {
    beginDraining();
    const work = vi.fn(async () => 0);
    const stop = start(quietLogger(), work);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await stop();
    expect(work).not.toHaveBeenCalled();
  });

  it("logs an error while the restore check finds something, at most once per check interval", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const ahead = vi.fn(async () => 2);
    const stop = start(logger, async () => ++ticks, ahead);
    await until(() => ticks >= 5);
    await stop();
    expect(ahead).toHaveBeenCalledTimes(1);
    expect(AHEAD_CHECK_MS).toBeGreaterThan(60_000);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith({ things: 2 }, "things are ahead");
  });
});

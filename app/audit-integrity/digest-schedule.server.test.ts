// The digest schedule's life: it ticks until stopped, a failed tick is logged and the next one
// runs, a draining process queues nothing, digests ahead of the database are reported, and with no
// signing key there are no ticks, only one warning.
import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { beginDraining, resetLifecycleForTests } from "~/lib/lifecycle.server";
import { startDigestSchedule, tickMs } from "./digest-schedule.server";
import { startAuditDigests } from "./tasks.server";

const quietLogger = () => ({ warn: vi.fn(), error: vi.fn() });
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
};
/** A schedule ticking every millisecond (a 1 ms interval) with the restore check finding nothing. */
const start = (logger: ReturnType<typeof quietLogger>, queue: () => Promise<number>, aheadOfDatabase = async () => 0) =>
  startDigestSchedule(logger, { intervalSeconds: 0.001, firstTickMs: 1, queue, aheadOfDatabase });

afterEach(() => resetLifecycleForTests());

describe("startDigestSchedule", () => {
  it("ticks at least once per interval and at most a minute apart", () => {
    expect(tickMs(1)).toBe(1_000);
    expect(tickMs(30)).toBe(30_000);
    expect(tickMs(3600)).toBe(60_000);
  });

  it("logs a failed tick and goes on with the next; stop() ends the ticks", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const stop = start(logger, async () => {
      ticks++;
      if (ticks === 1) throw Object.assign(new Error("boom"), { code: "XX000" });
      return 0;
    });
    await until(() => ticks >= 3);
    await stop();
    const stoppedAt = ticks;
    expect(logger.error).toHaveBeenCalledWith({ err: { message: "boom", code: "XX000" } }, "audit digest schedule tick failed");
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

  it("queues nothing while the process drains", async () => {
    beginDraining();
    const queue = vi.fn(async () => 0);
    const stop = start(quietLogger(), queue);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await stop();
    expect(queue).not.toHaveBeenCalled();
  });

  it("logs an error while digests are ahead of the database's transaction ids, at most once per check interval", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const ahead = vi.fn(async () => 2);
    const stop = start(
      logger,
      async () => {
        ticks++;
        return 0;
      },
      ahead,
    );
    await until(() => ticks >= 5);
    await stop();
    expect(ahead).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]![0]).toEqual({ organizations: 2 });
    expect(String(logger.error.mock.calls[0]![1])).toMatch(/logical dump.*README, Backups/);
  });
});

describe("startAuditDigests", () => {
  it("without a signing key: one warning that the log is not sealed, and no ticks", async () => {
    const logger = quietLogger();
    const stop = startAuditDigests(logger, { AUDIT_SIGNING_KEY: undefined, AUDIT_DIGEST_INTERVAL: 1 });
    await stop();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(String(logger.warn.mock.calls[0]![0])).toMatch(/AUDIT_SIGNING_KEY is not set: the audit log is not sealed/);
  });

  it("with a key: ticks, and stops when told", async () => {
    const logger = quietLogger();
    const stop = startAuditDigests(logger, { AUDIT_SIGNING_KEY: generateKeyPairSync("ed25519").privateKey, AUDIT_DIGEST_INTERVAL: 3600 });
    await stop();
    expect(logger.warn).not.toHaveBeenCalled();
  });
});

// The digest schedule on the workers' ticks (app/jobs/periodic-ticks.server.ts, tested there): its
// period, what it logs for a failed tick and for digests ahead of a restored database, and with no
// signing key no ticks, only one warning.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { startDigestSchedule, tickMs } from "./digest-schedule.server";
import { startAuditDigests } from "./tasks.server";
import { quietLogger, until } from "~/jobs/periodic-ticks.test-support";

/** A schedule ticking every millisecond (a 1 ms interval) with the restore check finding nothing. */
const start = (logger: ReturnType<typeof quietLogger>, queue: () => Promise<number>, aheadOfDatabase = async () => 0) =>
  startDigestSchedule(logger, { intervalSeconds: 0.001, firstTickMs: 1, queue, aheadOfDatabase });

describe("startDigestSchedule", () => {
  it("ticks at least once per interval and at most a minute apart", () => {
    expect(tickMs(1)).toBe(1_000);
    expect(tickMs(30)).toBe(30_000);
    expect(tickMs(3600)).toBe(60_000);
  });

  it("names itself when a tick fails, and the organizations whose digests are ahead of the database", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const stop = start(
      logger,
      async () => {
        ticks++;
        if (ticks === 1) throw Object.assign(new Error("boom"), { code: "XX000" });
        return 0;
      },
      async () => 2,
    );
    await until(() => ticks >= 2);
    await stop();
    expect(logger.error).toHaveBeenCalledWith({ err: { message: "boom", code: "XX000" } }, "audit digest schedule tick failed");
    expect(logger.error).toHaveBeenCalledWith({ organizations: 2 }, expect.stringMatching(/logical dump.*README, Backups/));
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

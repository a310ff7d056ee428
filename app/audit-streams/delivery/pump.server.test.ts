// The pump on the workers' ticks (app/jobs/periodic-ticks.server.ts, tested there): what it logs
// for a failed tick and for cursors ahead of a restored database.
import { describe, expect, it } from "vitest";
import { startPump } from "./pump.server";
import { quietLogger, until } from "~/jobs/periodic-ticks.test-support";

describe("startPump", () => {
  it("names itself when a tick fails, and the streams whose cursors are ahead of the database", async () => {
    const logger = quietLogger();
    let ticks = 0;
    const stop = startPump(
      logger,
      1,
      async () => {
        ticks++;
        if (ticks === 1) throw Object.assign(new Error("boom"), { code: "XX000" });
        return 0;
      },
      async () => 2,
    );
    await until(() => ticks >= 2);
    await stop();
    expect(logger.error).toHaveBeenCalledWith({ err: { message: "boom", code: "XX000" } }, "audit stream pump tick failed");
    expect(logger.error).toHaveBeenCalledWith({ streams: 2 }, expect.stringContaining("restored from a logical dump"));
  });
});

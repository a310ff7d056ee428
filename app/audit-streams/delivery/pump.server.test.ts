// The pump on the workers' ticks (app/jobs/periodic-ticks.server.ts, tested there): what it logs
// for a failed tick and for cursors ahead of a restored database.
import { describe, expect, it, vi } from "vitest";
import { startPump } from "./pump.server";

const quietLogger = () => ({ warn: vi.fn(), error: vi.fn() });
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
};

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

// Errors that escape every request are logged, never silent, and do not end the process.
import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { installProcessGuards } from "../../server/process-guards.ts";

describe("process guards", () => {
  it("log an uncaught exception as fatal and an unhandled rejection as an error", () => {
    const fakeProcess = new EventEmitter();
    const logger = { fatal: vi.fn(), error: vi.fn() };
    installProcessGuards(logger, fakeProcess as unknown as NodeJS.Process);
    const thrown = new Error("escaped a request");
    fakeProcess.emit("uncaughtException", thrown);
    fakeProcess.emit("unhandledRejection", "rejected with a string");
    expect(logger.fatal).toHaveBeenCalledWith({ err: thrown }, "uncaught exception");
    expect(logger.error).toHaveBeenCalledWith({ err: "rejected with a string" }, "unhandled promise rejection");
  });
});

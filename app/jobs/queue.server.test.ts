import { afterEach, describe, expect, it } from "vitest";
import type { JobHelpers } from "graphile-worker";
import { z } from "zod";
import { beginDraining, resetLifecycleForTests } from "~/lib/lifecycle.server";
import { loggableError, taskWithPayload, workerLogLevel } from "./queue.server";

describe("loggableError", () => {
  it("keeps the kind and codes of a mail server's refusal but blanks every address", () => {
    const refusal = Object.assign(
      new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <zelda.x+tag@example.test>: Recipient address rejected"),
      {
        code: "EENVELOPE",
        responseCode: 550,
        rejected: ["zelda.x+tag@example.test"],
        response: "550 5.1.1 <zelda.x+tag@example.test>",
      },
    );
    const logged = loggableError(refusal);
    expect(logged).toEqual({
      type: "Error",
      message: "Can't send mail - all recipients were rejected: 550 5.1.1 <[address]>: Recipient address rejected",
      code: "EENVELOPE",
      responseCode: 550,
    });
    expect(JSON.stringify(logged)).not.toContain("@");
  });

  it("describes things that are not errors without failing", () => {
    expect(loggableError("boom")).toEqual({ type: "Error", message: "boom" });
    expect(loggableError(null)).toEqual({ type: "Error", message: "null" });
  });
});

describe("taskWithPayload", () => {
  const schema = z.object({ userId: z.string() });

  function helpersLogging(lines: string[]) {
    return { logger: { error: (line: string) => lines.push(line) } } as unknown as JobHelpers;
  }

  it("runs with the parsed payload", async () => {
    const seen: unknown[] = [];
    const task = taskWithPayload("test mail", schema, async (payload) => void seen.push(payload));
    await task({ userId: "u1", extra: true }, helpersLogging([]));
    expect(seen).toEqual([{ userId: "u1" }]);
  });

  it("drops a payload that does not parse with one line naming the job, never the payload", async () => {
    const lines: string[] = [];
    let ran = false;
    const task = taskWithPayload("test mail", schema, async () => void (ran = true));
    await task({ userId: 42, secret: "do-not-log" }, helpersLogging(lines));
    expect(ran).toBe(false);
    expect(lines).toEqual(["test mail job with an unreadable payload: dropped"]);
  });
});

describe("the worker's log levels", () => {
  afterEach(() => resetLifecycleForTests());
  const lost = new Error("Client has encountered a connection error and is not queryable");
  const stopping = Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" });

  it("keeps the worker's own levels, and makes a database outage a warning, not an error", () => {
    expect(workerLogLevel("warning", undefined)).toBe("warn");
    expect(workerLogLevel("error", new Error("a task failed"))).toBe("error");
    expect(workerLogLevel("error", lost)).toBe("warn");
    expect(workerLogLevel("warning", lost)).toBe("warn");
  });

  it("says nothing above debug of the database stopping, nor, once this process drains, of the connections it ended", () => {
    expect(workerLogLevel("error", stopping)).toBe("debug");
    beginDraining();
    expect(workerLogLevel("warning", lost)).toBe("debug");
    expect(workerLogLevel("error", lost)).toBe("debug");
    expect(workerLogLevel("error", new Error("a task failed"))).toBe("error");
  });
});

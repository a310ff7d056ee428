// The server's garbage collection while idle (server/idle-collection.ts, decision 0067): once after a
// busy period has gone quiet, never while requests come, never again until requests came.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectWhenIdle, exposedGc } from "../../server/idle-collection.ts";

describe("collectWhenIdle", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("collects once two quiet seconds follow requests, and not again until requests came", () => {
    const gc = vi.fn();
    const idle = collectWhenIdle(gc);
    vi.advanceTimersByTime(10_000);
    expect(gc).not.toHaveBeenCalled(); // a server that never served has nothing to collect
    idle.noteRequest();
    vi.advanceTimersByTime(1_000); // the check that sees the request
    vi.advanceTimersByTime(1_000); // one quiet check
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000); // two quiet checks
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(gc).toHaveBeenCalledTimes(1);
    idle.noteRequest();
    vi.advanceTimersByTime(3_000);
    expect(gc).toHaveBeenCalledTimes(2);
    idle.stop();
  });

  it("never collects while requests keep coming, however long", () => {
    const gc = vi.fn();
    const idle = collectWhenIdle(gc);
    for (let second = 0; second < 120; second++) {
      idle.noteRequest();
      vi.advanceTimersByTime(1_000);
    }
    expect(gc).not.toHaveBeenCalled();
    idle.stop();
  });

  it("stops checking when stopped", () => {
    const gc = vi.fn();
    const idle = collectWhenIdle(gc);
    idle.noteRequest();
    idle.stop();
    vi.advanceTimersByTime(10_000);
    expect(gc).not.toHaveBeenCalled();
  });
});

describe("exposedGc", () => {
  it("runs V8's full collection without putting gc on the app's own global", () => {
    const gc = exposedGc();
    expect(typeof gc).toBe("function");
    // Garbage once the function returns: objects no longer reachable from anywhere.
    const allocate = () => Array.from({ length: 200_000 }, (_, i) => ({ i })).length;
    expect(allocate()).toBe(200_000);
    const before = process.memoryUsage().heapUsed;
    gc();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { FIRST_PAUSE_MS, LONGEST_PAUSE_MS, retryPauseMs } from "./retry-pause";

describe("retryPauseMs", () => {
  it("starts at one second and doubles with each failure in a row", () => {
    const top = () => 0.999999;
    expect(retryPauseMs(1, top)).toBe(FIRST_PAUSE_MS);
    expect(retryPauseMs(2, top)).toBe(2 * FIRST_PAUSE_MS);
    expect(retryPauseMs(3, top)).toBe(4 * FIRST_PAUSE_MS);
    expect(retryPauseMs(9, top)).toBe(256 * FIRST_PAUSE_MS);
  });

  it("never waits longer than five minutes, however long the run", () => {
    expect(retryPauseMs(10, () => 0.999999)).toBe(LONGEST_PAUSE_MS);
    expect(retryPauseMs(1_000_000, () => 0.999999)).toBe(LONGEST_PAUSE_MS);
  });

  it("draws each pause between half and all of its step, so failed streams spread out", () => {
    expect(retryPauseMs(1, () => 0)).toBe(FIRST_PAUSE_MS / 2);
    expect(retryPauseMs(12, () => 0)).toBe(LONGEST_PAUSE_MS / 2);
    const pauses = new Set(Array.from({ length: 50 }, () => retryPauseMs(5)));
    expect(pauses.size).toBeGreaterThan(1);
    for (const pause of pauses) {
      expect(pause).toBeGreaterThanOrEqual(8_000);
      expect(pause).toBeLessThanOrEqual(16_000);
    }
  });

  it("treats a count below one as the first failure", () => {
    expect(retryPauseMs(0, () => 0.999999)).toBe(FIRST_PAUSE_MS);
  });
});

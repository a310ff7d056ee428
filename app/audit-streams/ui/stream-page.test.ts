import { describe, expect, it } from "vitest";
import { lagParts, shownState } from "./stream-page";

describe("lagParts", () => {
  it("uses the largest whole unit", () => {
    expect(lagParts(0.4)).toEqual({ unit: "seconds", count: 1 });
    expect(lagParts(59.6)).toEqual({ unit: "seconds", count: 59 });
    expect(lagParts(60)).toEqual({ unit: "minutes", count: 1 });
    expect(lagParts(3599)).toEqual({ unit: "minutes", count: 59 });
    expect(lagParts(7200)).toEqual({ unit: "hours", count: 2 });
    expect(lagParts(3 * 86_400 + 5)).toEqual({ unit: "days", count: 3 });
  });
});

describe("shownState", () => {
  it("marks streams that would deliver as not delivering while the organization cannot stream", () => {
    expect(shownState("active", "plan")).toBe("blocked");
    expect(shownState("failing", "billing")).toBe("blocked");
    expect(shownState("paused", "plan")).toBe("paused");
    expect(shownState("failing", null)).toBe("failing");
  });
});

import { describe, expect, it } from "vitest";
import { daysLeft, isReminderKind, stillInWindow } from "./reminder-kinds";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const expiresAt = new Date("2026-12-10T12:00:00.000Z");
const before = (ms: number) => new Date(expiresAt.getTime() - ms);

describe("reminder kinds", () => {
  it("counts whole days left, rounded up, never below one", () => {
    expect(daysLeft(expiresAt, before(7 * DAY - HOUR))).toBe(7);
    expect(daysLeft(expiresAt, before(DAY - 15 * 60 * 1000))).toBe(1);
    expect(daysLeft(expiresAt, before(HOUR))).toBe(1);
    expect(daysLeft(expiresAt, before(-HOUR))).toBe(1);
  });

  it("sends the 7-day mail only while more than a day is left, the 1-day one until the expiry", () => {
    expect(stillInWindow("seven_days", expiresAt, before(DAY + 1))).toBe(true);
    expect(stillInWindow("seven_days", expiresAt, before(DAY))).toBe(false);
    expect(stillInWindow("one_day", expiresAt, before(1))).toBe(true);
    expect(stillInWindow("one_day", expiresAt, expiresAt)).toBe(false);
  });

  it("knows its kinds and nothing else", () => {
    expect(["seven_days", "one_day", "toString", "constructor", ""].map(isReminderKind)).toEqual([true, true, false, false, false]);
  });
});

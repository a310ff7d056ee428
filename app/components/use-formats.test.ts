// The date formats remember what they formatted (decision 0042): a remembered answer must be the
// one Intl gives, per language and per format, and the memory must not mix instants up when it
// fills and starts again.
import { describe, expect, it } from "vitest";
import { formatsFor } from "./use-formats";

const iso = "2026-11-25T14:05:09.000Z";

describe("formatsFor", () => {
  it("answers what Intl answers, in UTC, per language and format, the first time and again", () => {
    const en = formatsFor("en");
    const de = formatsFor("de");
    for (let i = 0; i < 2; i++) {
      expect(en.dateTimeSeconds(iso)).toBe("Nov 25, 2026, 2:05:09 PM");
      expect(en.dateTime(iso)).toBe("Nov 25, 2026, 2:05 PM");
      expect(en.date(iso)).toBe("Nov 25, 2026");
      expect(de.dateTimeSeconds(iso)).toBe("25.11.2026, 14:05:09");
      expect(de.date(iso)).toBe("25.11.2026");
    }
  });

  it("keeps every instant apart when the memory fills and is cleared", () => {
    const { dateTimeSeconds } = formatsFor("en");
    const start = Date.parse("2020-01-01T00:00:00.000Z");
    const instants = Array.from({ length: 12_000 }, (_, i) => new Date(start + i * 1000).toISOString());
    const first = instants.map(dateTimeSeconds);
    expect(instants.map(dateTimeSeconds)).toEqual(first);
    expect(new Set(first).size).toBe(instants.length);
    expect(first[61]).toBe("Jan 1, 2020, 12:01:01 AM");
  });
});

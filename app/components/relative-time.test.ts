// "3 minutes ago" in both languages, from the same `now` (the loader's on the server and in
// hydration): the words depend on the two instants and the language only.
import { describe, expect, it } from "vitest";
import { relativeTimeText } from "./relative-time";

const now = Date.parse("2026-11-25T12:00:00.000Z");
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe("relativeTimeText", () => {
  it("says how long ago, in English and German", () => {
    expect(relativeTimeText(ago(10), now, "en")).toBe("now");
    expect(relativeTimeText(ago(3 * 60), now, "en")).toBe("3 minutes ago");
    expect(relativeTimeText(ago(3 * 60), now, "de")).toBe("vor 3 Minuten");
    expect(relativeTimeText(ago(60), now, "en")).toBe("1 minute ago");
    expect(relativeTimeText(ago(5 * 3600), now, "en")).toBe("5 hours ago");
    expect(relativeTimeText(ago(5 * 3600), now, "de")).toBe("vor 5 Stunden");
    expect(relativeTimeText(ago(26 * 3600), now, "en")).toBe("yesterday");
    expect(relativeTimeText(ago(26 * 3600), now, "de")).toBe("gestern");
    expect(relativeTimeText(ago(12 * 86400), now, "en")).toBe("12 days ago");
  });

  it("gives way to the date from 30 days on, and calls a clock a little ahead 'now'", () => {
    expect(relativeTimeText(ago(29 * 86400), now, "en")).toBe("29 days ago");
    expect(relativeTimeText(ago(30 * 86400), now, "en")).toBeNull();
    expect(relativeTimeText(ago(-20), now, "en")).toBe("now");
  });
});

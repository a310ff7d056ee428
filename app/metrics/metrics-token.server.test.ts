import { describe, expect, it } from "vitest";
import { metricsTokenCheck } from "./metrics-token.server";

const TOKEN = "c0ffee-and-a-long-enough-token";

describe("metricsTokenCheck", () => {
  const authorized = metricsTokenCheck(TOKEN);

  it("takes exactly `Bearer <token>` (any case of the scheme)", () => {
    expect(authorized(`Bearer ${TOKEN}`)).toBe(true);
    expect(authorized(`bearer ${TOKEN}`)).toBe(true);
    expect(authorized(`BEARER  ${TOKEN}`)).toBe(true);
  });

  it("refuses anything else: missing, empty, other schemes, near misses, lists, huge", () => {
    for (const header of [
      undefined,
      "",
      "Bearer",
      "Bearer ",
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN.slice(1)}`,
      `Bearer ${TOKEN}0`,
      `Bearer ${TOKEN.toUpperCase()}`,
      `Bearer ${TOKEN}, Bearer ${TOKEN}`,
      `Bearer "${TOKEN}"`,
      `Bearer ${TOKEN}\u0000`,
      `Bearer ${TOKEN}${" ".repeat(2000)}x`,
      `Bearer ${"x".repeat(100_000)}`,
    ]) {
      expect(authorized(header), JSON.stringify(header?.slice(0, 60))).toBe(false);
    }
    expect(authorized([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`])).toBe(false);
  });
});

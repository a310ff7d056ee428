import { describe, expect, it } from "vitest";
import { readJsonPayload, toJsonPayload } from "./json-payload";

describe("JSON payloads (app/lib/json-payload.ts)", () => {
  it("gives back the same rows: nulls, nested objects, lists, and text that means something in a page", () => {
    const rows = [
      { id: "k1", name: "</script><script>alert(1)</script>", scopes: ["audit:read"], createdBy: null, leak: { count: 2, url: "" } },
      { id: "k2", name: "Schlüssel \u2028 $& {{name}} \u0000", scopes: [], createdBy: { name: "Zoë", deleted: false }, leak: null },
    ];
    const payload = toJsonPayload(rows);
    expect(typeof payload).toBe("string");
    expect(readJsonPayload(payload)).toEqual(rows);
  });
});

import { describe, expect, it } from "vitest";
import { splitIntoBodies } from "~/audit-streams/outbound/request-bodies";

const bytes = (item: string) => item.length;

describe("splitting a batch into request bodies", () => {
  it("fills each body up to the cap, envelope and separators counted, in order", () => {
    // Envelope 2 + "aaaa" + "," + "bbbb" = 11; one more item would make 16.
    const limit = { maxBytes: 11, envelopeBytes: 2, separatorBytes: 1 };
    expect(splitIntoBodies(["aaaa", "bbbb", "cccc", "dd"], bytes, limit)).toEqual([
      ["aaaa", "bbbb"],
      ["cccc", "dd"],
    ]);
    expect(splitIntoBodies(["aaaa", "bbbb"], bytes, { ...limit, maxBytes: 10 })).toEqual([["aaaa"], ["bbbb"]]);
  });

  it("sends an item larger than the cap alone, between the others", () => {
    const limit = { maxBytes: 10, envelopeBytes: 0, separatorBytes: 1 };
    expect(splitIntoBodies(["a", "x".repeat(50), "b", "c"], bytes, limit)).toEqual([["a"], ["x".repeat(50)], ["b", "c"]]);
  });

  it("keeps to an entry cap, and gives no body for no items", () => {
    const limit = { maxBytes: 1000, maxEntries: 2, envelopeBytes: 2, separatorBytes: 1 };
    expect(splitIntoBodies(["a", "b", "c"], bytes, limit)).toEqual([["a", "b"], ["c"]]);
    expect(splitIntoBodies([], bytes, limit)).toEqual([]);
  });
});

// The canonical JSON is written as loops for speed; it must give exactly the text of the rule as
// first written (RFC 8785 for JSON.parse values: keys by UTF-16 code units, no whitespace,
// ECMAScript's strings and numbers, undefined members left out), on many generated values.
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

/** The rule as first written (the foundation's lines), the reference the fast version must equal. */
function byRule(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(byRule).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${byRule(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A deterministic generator (xorshift), so a failure names a seed that reproduces it. */
function generator(seed: number) {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const KEYS = ["a", "b", "B", "aa", "", "é", "\u20ac", "😀", "\ufb33", "10", "1", "key with space", "z\u0000"];
const STRINGS = ["", "plain", 'quote " and \\ back', "line\nbreak\u2028", "😀 emoji", "\u0007 control", "ümlaut"];
const NUMBERS = [0, -0, 1, -1, 1.5, 1e21, 1e-7, 123456789012345, 0.1 + 0.2, Number.MAX_SAFE_INTEGER];

function randomValue(next: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const kind = Math.floor(next() * (depth > 3 ? 4 : 6));
  if (kind === 0) return pick(STRINGS);
  if (kind === 1) return pick(NUMBERS);
  if (kind === 2) return pick([true, false, null]);
  if (kind === 3) return pick(KEYS);
  if (kind === 4) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) object[pick(KEYS)] = next() < 0.1 ? undefined : randomValue(next, depth + 1);
  return object;
}

describe("canonicalJson", () => {
  it("sorts keys by UTF-16 code units and leaves out undefined members", () => {
    expect(canonicalJson({ b: 1, a: [true, null, "x"], "\u20ac": 2, "😀": 3, "\ufb33": 4, c: undefined })).toBe(
      '{"a":[true,null,"x"],"b":1,"\u20ac":2,"😀":3,"\ufb33":4}',
    );
  });

  it("gives the rule's text for 5,000 generated values", () => {
    for (let seed = 1; seed <= 5000; seed++) {
      const value = randomValue(generator(seed), 0);
      expect(canonicalJson(value), `seed ${seed}`).toBe(byRule(value));
    }
  });
});

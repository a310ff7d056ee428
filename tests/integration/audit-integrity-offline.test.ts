// The offline verifier (scripts/verify-audit-export.mjs) carries its own copy of the canonical JSON
// and of the sealed fields, because it must run with nothing but Node. These tests hold the copy
// to the app's (app/lib/canonical-json.ts, app/audit-integrity/event-content.ts) byte for byte:
// the same text and hash for generated events with hostile details, read back from an NDJSON line
// as the export writes it. And the command's arguments: anything wrong is exit 2 with a message.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalEventText as appEventText, eventSha256 } from "~/audit-integrity/event-content";
import { canonicalJson as appCanonicalJson } from "~/lib/canonical-json";
import { canonicalEventText, canonicalJson, eventSha256Hex, main, parseArguments, UsageError } from "../../scripts/verify-audit-export.mjs";

/** Values that have broken canonical JSON implementations. */
const HOSTILE: unknown[] = [
  1e21,
  1e-7,
  -0,
  0.1,
  0.1 + 0.2,
  123456789012345680000,
  Number.MAX_SAFE_INTEGER + 2,
  5e-324,
  -1.7976931348623157e308,
  "😀 astral 𝄞",
  "e\u0301 combining, é precomposed",
  "\u0000\u0001\u001f\u007f\u0080\u009f control",
  "\u2028\u2029 separators",
  'quote " backslash \\ slash / tab \t newline \n',
  "<script>alert('x')</script> &amp; <b>",
  "\ud83d\ude00",
  { "": "empty key", " ": "space key" },
  { b: 1, a: 2, A: 3, é: 4, "😀": 5, "\uffff": 6, "\ud800\udc00": 7 },
  { z: { y: [1, { x: [], w: {} }], v: null }, a: [true, false, null] },
  [[[[[]]]]],
  { "10": "ten", "9": "nine", "1": "one" },
];

const ORGANIZATION = randomUUID();

/** An event as the NDJSON export writes it, read back as the verifier reads a line. */
function exportedLine(event: { id: string; createdAtMs: number; action: string; actorId: string; details: unknown }) {
  const line = JSON.stringify({
    id: event.id,
    createdAt: new Date(event.createdAtMs).toISOString(),
    action: event.action,
    actorKind: "user",
    actorId: event.actorId,
    actorName: null,
    targetType: "api_key",
    targetId: "key-1",
    targetName: "<b>name</b>",
    details: event.details,
  });
  return JSON.parse(line) as Parameters<typeof canonicalEventText>[0];
}

function sealedOf(event: { id: string; createdAtMs: number; action: string; actorId: string; details: unknown }) {
  return {
    id: event.id,
    organizationId: ORGANIZATION,
    createdAtMs: event.createdAtMs,
    action: event.action,
    actorKind: "user",
    actorId: event.actorId,
    targetType: "api_key",
    targetId: "key-1",
    // The seal parses jsonb's text; JSON's round trip gives the same value the export's line does.
    details: JSON.parse(JSON.stringify(event.details)) as unknown,
  };
}

describe("the verifier's canonical JSON and sealed content equal the app's", () => {
  it("for each hostile value, alone and as details", () => {
    for (const value of HOSTILE) {
      expect(canonicalJson(value)).toBe(appCanonicalJson(value));
      const event = {
        id: randomUUID(),
        createdAtMs: Date.UTC(2026, 10, 26, 9, 0, 0, 123),
        action: "api_key.issued",
        actorId: "u1",
        details: { value },
      };
      expect(canonicalEventText(exportedLine(event), ORGANIZATION)).toBe(appEventText(sealedOf(event)));
      expect(eventSha256Hex(exportedLine(event), ORGANIZATION)).toBe(eventSha256(sealedOf(event)).toString("hex"));
    }
  });

  it("for generated events (any code point, nested details, any times)", () => {
    const details = fc.oneof(
      fc.jsonValue({ stringUnit: "binary", maxDepth: 4 }),
      fc.dictionary(
        fc.string({ unit: "binary" }),
        fc.oneof(fc.constantFrom(...HOSTILE), fc.double({ noNaN: true, noDefaultInfinity: true })),
      ),
    );
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.string({ unit: "binary", maxLength: 40 }),
        details,
        (id, createdAtMs, action, actorId, value) => {
          const event = { id, createdAtMs, action, actorId, details: value };
          const text = canonicalEventText(exportedLine(event), ORGANIZATION);
          expect(text).toBe(appEventText(sealedOf(event)));
          expect(eventSha256Hex(exportedLine(event), ORGANIZATION)).toBe(eventSha256(sealedOf(event)).toString("hex"));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("keys in another order give the same text; another value does not", () => {
    const a = { id: randomUUID(), createdAtMs: 0, action: "a", actorId: "u", details: { b: 1, a: [2, 3] } };
    const reordered = { ...a, details: { a: [2, 3], b: 1 } };
    expect(eventSha256Hex(exportedLine(a), ORGANIZATION)).toBe(eventSha256Hex(exportedLine(reordered), ORGANIZATION));
    expect(eventSha256Hex(exportedLine(a), ORGANIZATION)).not.toBe(
      eventSha256Hex(exportedLine({ ...a, details: { a: [3, 2], b: 1 } }), ORGANIZATION),
    );
    expect(eventSha256Hex(exportedLine(a), ORGANIZATION)).not.toBe(eventSha256Hex(exportedLine(a), randomUUID()));
  });
});

describe("the verifier's arguments", () => {
  it("takes --export, --digests and optional --keys", () => {
    expect(parseArguments(["--export", "a.ndjson", "--digests", "d.json"])).toEqual({ exportPath: "a.ndjson", digestsPath: "d.json" });
    expect(parseArguments(["--keys", "k.json", "--digests", "d.json", "--export", "a.ndjson"])).toEqual({
      exportPath: "a.ndjson",
      digestsPath: "d.json",
      keysPath: "k.json",
    });
  });

  it.each([
    [[], /required/],
    [["--export", "a.ndjson"], /required/],
    [["--export", "a.ndjson", "--digests"], /needs a file name/],
    [["--export", "--digests", "d.json"], /needs a file name/],
    [["--export", "a", "--export", "b", "--digests", "d"], /given twice/],
    [["--export", "a", "--digests", "d", "--verbose"], /Unknown argument: --verbose/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });

  it("answers exit 2 with a message and the usage for files it cannot read", async () => {
    const errors: string[] = [];
    const code = await main(
      ["--export", "/nonexistent/a.ndjson", "--digests", "/nonexistent/d.json"],
      () => {},
      (line) => errors.push(line),
    );
    expect(code).toBe(2);
    expect(errors[0]).toMatch(/Cannot read the digests file \/nonexistent\/d\.json/);
    expect(errors[1]).toMatch(/^Usage: /);
  });
});

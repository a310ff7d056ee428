import { parseWithZod } from "@conform-to/zod/v4";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asciiLowerCase, storedText } from "./text";

const name = storedText({ max: 20 });
const issue = (value: unknown) => {
  const result = name.safeParse(value);
  return result.success ? null : result.error.issues[0]?.message;
};

describe("storedText", () => {
  it("trims and keeps ordinary text in any script", () => {
    expect(name.parse("  Acme GmbH  ")).toBe("Acme GmbH");
    expect(name.parse("Ключ 🔑 日本")).toBe("Ключ 🔑 日本");
  });

  it("refuses NUL and other control characters with a translated message", () => {
    for (const value of ["a\u0000b", "line\nbreak", "tab\there", "del\u007f", "c1\u0085"])
      expect(issue(value)).toBe("field.controlCharacters");
  });

  it("refuses invisible characters that disguise or reorder a name, and keeps emoji joiners", () => {
    for (const value of [
      "KEY\u200b",
      "evil\u202Egnp.exe",
      "a\u2066b",
      "k\ufeffey",
      "line\u2028break",
      "bill\u00ading",
      "deploy\u200f",
      "a\u3164b",
      "x\u2062y",
    ]) {
      expect(issue(value), JSON.stringify(value)).toBe("field.controlCharacters");
    }
    expect(issue("👨\u200d👩\u200d👧")).toBeNull();
  });

  it("stores one form of each name (NFC)", () => {
    expect(name.parse("Cafe\u0301")).toBe("Caf\u00e9");
  });

  it("refuses lone surrogates and the replacement character, so two names cannot collide", () => {
    for (const value of ["a\ud800", "\udc00b", "x\ud800\ud800", "bad\ufffd"]) expect(issue(value)).toBe("field.invalidCharacters");
    expect(issue("pair \ud83d\udd11")).toBeNull();
  });

  it("counts characters, not UTF-16 units", () => {
    expect(issue("😀".repeat(20))).toBeNull();
    expect(issue("😀".repeat(21))).toBe("field.tooLong");
  });

  it("applies the length rules after trimming", () => {
    expect(issue("   ")).toBe("field.required");
    expect(issue("x".repeat(21))).toBe("field.tooLong");
    expect(issue(42)).toBe("field.required");
  });

  it("gives forms the same messages (conform turns empty strings into undefined)", () => {
    const form = z.object({ name });
    const reply = (value: string) => {
      const data = new FormData();
      data.set("name", value);
      return parseWithZod(data, { schema: form }).reply().error?.name;
    };
    expect(reply("   ")).toEqual(["field.required"]);
    expect(reply("")).toEqual(["field.required"]);
    expect(reply("a\u0000")).toEqual(["field.controlCharacters"]);
    expect(reply("Acme")).toBeUndefined();
  });

  it("accepts only strings PostgreSQL can store as UTF-8 text (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 30 }), (value) => {
        const result = name.safeParse(value);
        if (result.success) {
          expect(result.data.includes("\u0000")).toBe(false);
          // Round-trips through UTF-8 unchanged: nothing would be replaced on the way in.
          expect(Buffer.from(result.data, "utf8").toString("utf8")).toBe(result.data);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("lowercases ASCII only, so look-alikes cannot slip past ASCII rules", () => {
    expect(asciiLowerCase("AcMe-42")).toBe("acme-42");
    expect(asciiLowerCase("\u212Acme")).toBe("\u212Acme");
    expect("\u212Acme".toLowerCase()).toBe("kcme");
  });
});

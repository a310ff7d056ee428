import { describe, expect, it } from "vitest";
import { detectLanguage, languageFromHeaders, languageFromSearchParams } from "./i18next.server";
import { resources } from "./resources";

const headers = (init: Record<string, string>) => new Headers(init);

describe("language detection", () => {
  it("prefers ?lng=, then the lng cookie, then Accept-Language", async () => {
    expect(await detectLanguage(new Request("http://x/?lng=de", { headers: { cookie: "lng=en", "accept-language": "en" } }))).toBe("de");
    expect(await detectLanguage(new Request("http://x/", { headers: { cookie: "lng=de", "accept-language": "en" } }))).toBe("de");
    expect(await detectLanguage(new Request("http://x/", { headers: { "accept-language": "fr;q=1, de-AT;q=0.8, en;q=0.5" } }))).toBe("de");
  });

  it("remembers exactly the language ?lng= chose, and nothing for values that choose none", async () => {
    const chosen = (query: string) => languageFromSearchParams(new Request(`http://x/${query}`, { headers: { cookie: "lng=en" } }));
    for (const query of ["?lng=de", "?lng=DE", "?lng=de-AT"]) {
      expect(await chosen(query)).toBe("de");
      expect(await detectLanguage(new Request(`http://x/${query}`, { headers: { cookie: "lng=en" } }))).toBe("de");
    }
    for (const query of ["", "?lng=", "?lng=fr", "?lng=../../etc/passwd", "?lng=%00"]) expect(await chosen(query)).toBeNull();
  });

  it("ignores tampered values and falls back to English", async () => {
    expect(await detectLanguage(new Request("http://x/?lng=../../etc/passwd", { headers: { cookie: "lng=%00xx" } }))).toBe("en");
    expect(languageFromHeaders(headers({ cookie: "lng=" + "d".repeat(10_000) }))).toBe("en");
    expect(languageFromHeaders(headers({ "accept-language": "de;q=0" }))).toBe("en");
    expect(languageFromHeaders(headers({ "accept-language": "de;q=abc, ;;;, x".repeat(500) }))).toBe("en");
  });

  it("has the same keys in English and German", () => {
    const keys = (value: unknown, prefix = ""): string[] =>
      typeof value === "object" && value !== null
        ? Object.entries(value).flatMap(([k, v]) => keys(v, `${prefix}${k}.`))
        : [prefix.slice(0, -1)];
    expect(keys(resources.de).sort()).toEqual(keys(resources.en).sort());
  });
});

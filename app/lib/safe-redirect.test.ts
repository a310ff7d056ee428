import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_REDIRECT, safeRedirectPath, signInHref } from "./safe-redirect";

const ORIGIN = "https://keys.example.com";

/** What a browser does with a Location header: strip tab/newline, resolve against the page. */
function browserTarget(location: string): URL {
  return new URL(location.replace(/[\t\n\r]/g, ""), `${ORIGIN}/login`);
}

describe("safeRedirectPath", () => {
  it("keeps same-origin paths with their query and fragment", () => {
    expect(safeRedirectPath("/dashboard/organization-settings/audit-log?action=api_key.issued#x")).toBe(
      "/dashboard/organization-settings/audit-log?action=api_key.issued#x",
    );
    expect(safeRedirectPath("/admin/organizations")).toBe("/admin/organizations");
  });

  it("falls back for everything that could leave the origin or break the header", () => {
    for (const value of [
      "//evil.example",
      "/\t/evil.example/landing",
      "/%09/evil.example/landing",
      "/\\evil.example",
      "/%5Cevil.example",
      "/%2F%2Fevil.example",
      "/%252F%252Fevil.example",
      "\\\\evil.example",
      "https://evil.example",
      "javascript:alert(1)",
      "/login\r\nSet-Cookie: x=1",
      "/dash\u0000board",
      "/ünïcödé\ud800",
      "/%E0%A4%A",
      "dashboard",
      "",
      "/" + "a".repeat(3000),
    ]) {
      expect(safeRedirectPath(value), JSON.stringify(value)).toBe(DEFAULT_REDIRECT);
    }
    expect(safeRedirectPath(undefined)).toBe(DEFAULT_REDIRECT);
    expect(safeRedirectPath(42)).toBe(DEFAULT_REDIRECT);
  });

  it("keeps encoded text in the query, where it cannot lead anywhere", () => {
    expect(safeRedirectPath("/admin/organizations?q=acme%20corp&p=100%25")).toBe("/admin/organizations?q=acme%20corp&p=100%25");
    expect(safeRedirectPath("/dashboard?next=%2F%2Fevil.example")).toBe("/dashboard?next=%2F%2Fevil.example");
    expect(safeRedirectPath("/%2F%2Fevil.example?x=1")).toBe(DEFAULT_REDIRECT);
  });

  it("turns non-ASCII paths into a valid header value on the same origin", () => {
    expect(safeRedirectPath("/dashboard?q=Grüße")).toBe("/dashboard?q=Gr%C3%BC%C3%9Fe");
  });

  it("never accepts a value that takes a browser off the origin (property, thousands of strings)", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      "\t",
      "\n",
      "\r",
      " ",
      "%2F",
      "%5C",
      "%09",
      "%25",
      ".",
      "..",
      "@",
      ":",
      "?",
      "#",
      "evil.example",
      "http:",
      "\u0000",
      "\u00a0",
      "\u3002",
      "\ud800",
      "é",
    );
    const generated = fc.oneof(
      fc.string({ unit: "binary", maxLength: 60 }),
      fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join("")),
      fc.webUrl(),
      fc.webPath(),
    );
    fc.assert(
      fc.property(generated, (value) => {
        const result = safeRedirectPath(value);
        expect(result.startsWith("/") && !result.startsWith("//") && !result.startsWith("/\\")).toBe(true);
        expect(/^[\x21-\x7e]+$/.test(result)).toBe(true);
        expect(browserTarget(result).origin).toBe(ORIGIN);
      }),
      { numRuns: 20_000 },
    );
  });

  it("builds sign-in links that come back to the page", () => {
    expect(signInHref("/admin/organizations?q=a")).toBe("/login?redirectTo=%2Fadmin%2Forganizations%3Fq%3Da");
    expect(signInHref("/")).toBe("/login");
    expect(signInHref("//evil.example")).toBe("/login");
  });
});

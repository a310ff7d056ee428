import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "./cross-site.server";

const APP = "https://keys.example.com";
const h = (init: Record<string, string>) => new Headers(init);

describe("cross-site rule (docs/product-rules.md, Authentication rule 7)", () => {
  it("allows same-origin and user-initiated requests, and requests without either header", () => {
    expect(isCrossSiteRequest(h({}), APP)).toBe(false);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "same-origin", origin: APP }), APP)).toBe(false);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "none" }), APP)).toBe(false);
  });

  it("refuses other Sec-Fetch-Site values and foreign origins", () => {
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "same-site" }), APP)).toBe(true);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "cross-site" }), APP)).toBe(true);
    expect(isCrossSiteRequest(h({ origin: "https://evil.example" }), APP)).toBe(true);
    expect(isCrossSiteRequest(h({ origin: "null" }), APP)).toBe(true);
    expect(isCrossSiteRequest(h({ origin: `${APP}.evil.example` }), APP)).toBe(true);
    expect(isCrossSiteRequest(h({ "sec-fetch-site": "same-origin", origin: "https://evil.example" }), APP)).toBe(true);
  });
});

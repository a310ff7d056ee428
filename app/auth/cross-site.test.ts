import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "~/auth/cross-site.server";
import { rejectBeforeRouting } from "./request-gate.server";

const APP = "https://keys.example.com";
const h = (init: Record<string, string>) => new Headers(init);

describe("cross-site rule (spec, Authentication rule 7)", () => {
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

  it("answers a cross-site write with a translated 403 before React Router sees it", async () => {
    const url = "http://localhost:3000/dashboard/organizations/new";
    expect(rejectBeforeRouting("GET", url, h({ origin: "https://evil.example" }))).toBeNull();
    expect(rejectBeforeRouting("POST", url, h({ origin: "http://localhost:3000" }))).toBeNull();
    const json = rejectBeforeRouting("POST", url, h({ origin: "https://evil.example", "accept-language": "de" }))!;
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({ code: "FORBIDDEN", message: "Websiteübergreifende Anfragen sind nicht erlaubt." });
    const html = rejectBeforeRouting("POST", url, h({ "sec-fetch-site": "cross-site", accept: "text/html" }))!;
    expect(html.status).toBe(403);
    expect(await html.text()).toContain("Cross-site requests are not allowed.");
  });

  it("refuses a body over 1 MiB with a translated 413", async () => {
    const url = "http://localhost:3000/login";
    expect(rejectBeforeRouting("POST", url, h({ "content-length": String(1024 * 1024) }))).toBeNull();
    const tooLarge = rejectBeforeRouting("POST", url, h({ "content-length": String(1024 * 1024 + 1) }))!;
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "The request is too large." });
  });
});

import { describe, expect, it } from "vitest";
import { baselineSecurityHeaders, documentContentSecurityPolicy } from "./security-headers";

describe("security headers", () => {
  it("adds Strict-Transport-Security only when the app is served over https", () => {
    expect(baselineSecurityHeaders({ https: true })["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(baselineSecurityHeaders({ https: false })).not.toHaveProperty("Strict-Transport-Security");
  });

  it("lets documents run only their own scripts, by nonce, and nobody frame them", () => {
    const policy = documentContentSecurityPolicy("abc123");
    expect(policy).toContain("script-src 'self' 'nonce-abc123'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
  });

  it("lets documents show images from our own origin and data: URIs only (no https: host, no blob:)", () => {
    const policy = documentContentSecurityPolicy("abc123");
    expect(policy.split("; ").filter((directive) => directive.startsWith("img-src"))).toEqual(["img-src 'self' data:"]);
    expect(baselineSecurityHeaders({ https: true })["Content-Security-Policy"]).toContain("img-src 'self';");
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveRequestTarget } from "./request-target";

const http = { protocol: "http:" } as const;

describe("resolveRequestTarget", () => {
  it("builds the URL from an origin-form target and the Host header", () => {
    const resolved = resolveRequestTarget("/login?x=1", "127.0.0.1:3000", http);
    expect(resolved.ok && resolved.url.href).toBe("http://127.0.0.1:3000/login?x=1");
    const v6 = resolveRequestTarget("/", "[::1]:3000", http);
    expect(v6.ok && v6.url.host).toBe("[::1]:3000");
  });

  it("keeps a path that starts with // a path on the same origin", () => {
    const resolved = resolveRequestTarget("//evil.example/landing", "keys.example.com", http);
    expect(resolved.ok && resolved.url.origin).toBe("http://keys.example.com");
    expect(resolved.ok && resolved.url.pathname).toBe("//evil.example/landing");
  });

  it("accepts the absolute form, taking its authority instead of Host", () => {
    const resolved = resolveRequestTarget("http://127.0.0.1:3000/login", "ignored.example", http);
    expect(resolved.ok && resolved.url.href).toBe("http://127.0.0.1:3000/login");
  });

  it("builds every URL on APP_ORIGIN when it is configured", () => {
    const resolved = resolveRequestTarget("/dashboard", "10.0.0.7:3000", { ...http, appOrigin: "https://keys.example.com" });
    expect(resolved.ok && resolved.url.href).toBe("https://keys.example.com/dashboard");
  });

  it("refuses garbage request targets and Host headers", () => {
    for (const [target, host] of [
      ["/login", "a b"],
      ["/login", "evil.example/path"],
      ["/login", "user@host"],
      ["/login", ""],
      ["/login", "host:99999999"],
      ["*", "localhost"],
      ["login", "localhost"],
      ["", "localhost"],
      [undefined, "localhost"],
      ["http://user:pw@localhost/", "localhost"],
      ["http://a b/", "localhost"],
      ["ftp://localhost/", "localhost"],
      ["/" + "a".repeat(9000), "localhost"],
    ] as const) {
      expect(resolveRequestTarget(target, host, http), `${target} / ${host}`).toEqual({ ok: false });
    }
  });

  it("never throws, and an accepted URL always has the origin it was built on", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary", maxLength: 80 }),
        fc.option(fc.string({ unit: "binary", maxLength: 40 }), { nil: undefined }),
        (target, host) => {
          const resolved = resolveRequestTarget(target, host, http);
          if (resolved.ok && !/^https?:\/\//i.test(target))
            expect(resolved.url.origin).toBe(new URL(`http://${host ?? "localhost"}`).origin);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

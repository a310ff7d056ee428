import { describe, expect, it } from "vitest";
import { ConfigError, isLoopbackHost, parseEnv, shutdownTimings, signUpPolicy } from "./env.server";

describe("configuration", () => {
  it("accepts a minimal environment and applies defaults", () => {
    const env = parseEnv({ DATABASE_URL: "postgresql://u:p@localhost:5432/db" });
    expect(env.PORT).toBe(3000);
    expect(env.TRUST_PROXY).toBe(false);
    expect(env.APP_ORIGIN).toBeUndefined();
  });

  it("takes a METRICS_TOKEN of 16-256 token characters and a commit hash, and names either when it is not one", () => {
    const token = "0123456789abcdef".repeat(2);
    expect(parseEnv({ DATABASE_URL: "postgres://x/y", METRICS_TOKEN: token, KEYLEDGER_COMMIT: "9FA7BF4" })).toMatchObject({
      METRICS_TOKEN: token,
      KEYLEDGER_COMMIT: "9FA7BF4",
    });
    expect(parseEnv({ DATABASE_URL: "postgres://x/y", METRICS_TOKEN: "" }).METRICS_TOKEN).toBeUndefined();
    for (const bad of ["too-short", "has spaces in it, sixteen+", "x".repeat(257), 'quote"d-0123456789abcdef']) {
      expect(() => parseEnv({ DATABASE_URL: "postgres://x/y", METRICS_TOKEN: bad }), bad).toThrow(
        /METRICS_TOKEN: METRICS_TOKEN must be 16-256/,
      );
    }
    expect(() => parseEnv({ DATABASE_URL: "postgres://x/y", KEYLEDGER_COMMIT: "main" })).toThrow(
      /KEYLEDGER_COMMIT: KEYLEDGER_COMMIT must be/,
    );
  });

  it("keeps audit streams off private networks unless STREAMING_ALLOW_PRIVATE_NETWORKS says true", () => {
    const base = { DATABASE_URL: "postgres://x/y" };
    expect(parseEnv(base).STREAMING_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(parseEnv({ ...base, STREAMING_ALLOW_PRIVATE_NETWORKS: "true" }).STREAMING_ALLOW_PRIVATE_NETWORKS).toBe(true);
    expect(parseEnv({ ...base, STREAMING_ALLOW_PRIVATE_NETWORKS: "0" }).STREAMING_ALLOW_PRIVATE_NETWORKS).toBe(false);
    expect(() => parseEnv({ ...base, STREAMING_ALLOW_PRIVATE_NETWORKS: "yes" })).toThrow(
      /STREAMING_ALLOW_PRIVATE_NETWORKS: STREAMING_ALLOW_PRIVATE_NETWORKS must be true or false\./,
    );
  });

  it("takes an optional read replica with its pool size and lag bound, and names each bad one", () => {
    const base = { DATABASE_URL: "postgres://x/y" };
    expect(parseEnv(base)).toMatchObject({ DATABASE_READ_POOL_SIZE: 10, DATABASE_READ_MAX_LAG_SECONDS: 10 });
    expect(parseEnv(base).DATABASE_READ_URL).toBeUndefined();
    expect(parseEnv({ ...base, DATABASE_READ_URL: "postgresql://r/y", DATABASE_READ_MAX_LAG_SECONDS: "1" })).toMatchObject({
      DATABASE_READ_URL: "postgresql://r/y",
      DATABASE_READ_MAX_LAG_SECONDS: 1,
    });
    expect(() => parseEnv({ ...base, DATABASE_READ_URL: "mysql://r/y" })).toThrow(
      /DATABASE_READ_URL must be a postgresql:\/\/ connection URL/,
    );
    expect(() => parseEnv({ ...base, DATABASE_READ_MAX_LAG_SECONDS: "0" })).toThrow(/between 1 and 3600/);
    expect(() => parseEnv({ ...base, DATABASE_READ_POOL_SIZE: "0" })).toThrow(/DATABASE_READ_POOL_SIZE/);
  });

  it("normalizes APP_ORIGIN to an origin", () => {
    expect(parseEnv({ DATABASE_URL: "postgres://x/y", APP_ORIGIN: "https://keys.example.com/some/path" }).APP_ORIGIN).toBe(
      "https://keys.example.com",
    );
  });

  it("names every bad variable with its own message", () => {
    try {
      parseEnv({ DATABASE_URL: "mysql://nope", PORT: "eighty", APP_ORIGIN: "ftp://x", TRUST_PROXY: "maybe" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain("DATABASE_URL: DATABASE_URL must be a postgresql:// connection URL.");
      expect(message).toContain("PORT: PORT must be a number.");
      expect(message).toContain("APP_ORIGIN:");
      expect(message).toContain("TRUST_PROXY: TRUST_PROXY must be true or false.");
    }
  });

  it("names a log level it does not know", () => {
    expect(parseEnv({ DATABASE_URL: "postgres://x/y" }).LOG_LEVEL).toBe("info");
    expect(() => parseEnv({ DATABASE_URL: "postgres://x/y", LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL must be one of/);
  });

  it("explains a missing DATABASE_URL", () => {
    expect(() => parseEnv({})).toThrow(/DATABASE_URL is required/);
  });

  it("rejects an out-of-range port", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://x/y", PORT: "70000" })).toThrow(/PORT must be between 1 and 65535/);
  });

  it("reads SIGNUP_POLICY, defaulting to open on the embedded database and invite otherwise", () => {
    const base = { DATABASE_URL: "postgres://x/y" };
    expect(signUpPolicy(parseEnv(base))).toEqual({ kind: "invite" });
    expect(signUpPolicy(parseEnv({ ...base, KEYLEDGER_EMBEDDED_DATABASE: "true" }))).toEqual({ kind: "open" });
    expect(signUpPolicy(parseEnv({ ...base, SIGNUP_POLICY: "open" }))).toEqual({ kind: "open" });
    expect(signUpPolicy(parseEnv({ ...base, SIGNUP_POLICY: "Invite", KEYLEDGER_EMBEDDED_DATABASE: "true" }))).toEqual({ kind: "invite" });
    expect(signUpPolicy(parseEnv({ ...base, SIGNUP_POLICY: "domains: A.example, b.example ,a.example" }))).toEqual({
      kind: "domains",
      domains: ["a.example", "b.example"],
    });
  });

  it("refuses a SIGNUP_POLICY it cannot read, naming what is wrong", () => {
    const base = { DATABASE_URL: "postgres://x/y" };
    expect(() => parseEnv({ ...base, SIGNUP_POLICY: "closed" })).toThrow(/SIGNUP_POLICY: SIGNUP_POLICY must be open, invite or domains:/);
    expect(() => parseEnv({ ...base, SIGNUP_POLICY: "domains:" })).toThrow(/SIGNUP_POLICY lists no domain/);
    expect(() => parseEnv({ ...base, SIGNUP_POLICY: "domains: , " })).toThrow(/SIGNUP_POLICY lists no domain/);
    expect(() => parseEnv({ ...base, SIGNUP_POLICY: "domains:example,good.example,-bad.example" })).toThrow(
      /malformed domains \(example, -bad\.example\)/,
    );
  });

  describe("HOST", () => {
    const base = { DATABASE_URL: "postgres://x/y" };

    it("defaults to this machine only on the embedded demo database, to every interface otherwise", () => {
      expect(parseEnv({ ...base, KEYLEDGER_EMBEDDED_DATABASE: "true" }).HOST).toBe("127.0.0.1");
      expect(parseEnv({ ...base, KEYLEDGER_EMBEDDED_DATABASE: "false" }).HOST).toBe("0.0.0.0");
      expect(parseEnv(base).HOST).toBe("0.0.0.0");
      expect(parseEnv({ ...base, KEYLEDGER_EMBEDDED_DATABASE: "true", HOST: "" }).HOST).toBe("127.0.0.1");
    });

    it("takes IPv4, IPv6 (bracketed too) and host names", () => {
      const host = (HOST: string) => parseEnv({ ...base, KEYLEDGER_EMBEDDED_DATABASE: "true", HOST }).HOST;
      expect(host("0.0.0.0")).toBe("0.0.0.0");
      expect(host("192.168.1.20")).toBe("192.168.1.20");
      expect(host("::")).toBe("::");
      expect(host("::1")).toBe("::1");
      expect(host("[::1]")).toBe("::1");
      expect(host("fe80::1%eth0")).toBe("fe80::1%eth0");
      expect(host("localhost")).toBe("localhost");
      expect(host(" keys.internal.example.com ")).toBe("keys.internal.example.com");
    });

    it.each([
      "999.1.1.1",
      "127.1",
      "1.2.3",
      "http://localhost",
      "localhost:3000",
      "0.0.0.0/0",
      "my host",
      "-bad.example",
      "a..b",
      ":::1",
      "*",
      "x".repeat(64),
    ])("refuses %s with a message naming HOST", (HOST) => {
      expect(() => parseEnv({ ...base, HOST })).toThrow(/HOST: HOST must be an IPv4 or IPv6 address or a host name/);
    });

    it("knows which addresses only this machine reaches", () => {
      for (const host of ["127.0.0.1", "127.0.0.2", "::1", "localhost"]) expect(isLoopbackHost(host)).toBe(true);
      for (const host of ["0.0.0.0", "::", "192.168.1.20", "keys.example.com"]) expect(isLoopbackHost(host)).toBe(false);
    });
  });

  it("drains for 5 s with an external database and not at all on the embedded demo or in development, unless told; grace 15 s", () => {
    const url = "postgresql://u:p@localhost:5432/db";
    expect(shutdownTimings(parseEnv({ DATABASE_URL: url, NODE_ENV: "production" }))).toEqual({ drainMs: 5_000, graceMs: 15_000 });
    expect(shutdownTimings(parseEnv({ DATABASE_URL: url, NODE_ENV: "development" }))).toEqual({ drainMs: 0, graceMs: 15_000 });
    expect(shutdownTimings(parseEnv({ DATABASE_URL: url, KEYLEDGER_EMBEDDED_DATABASE: "true" }))).toEqual({ drainMs: 0, graceMs: 15_000 });
    expect(
      shutdownTimings(
        parseEnv({ DATABASE_URL: url, KEYLEDGER_EMBEDDED_DATABASE: "true", SHUTDOWN_DRAIN_SECONDS: "3", SHUTDOWN_GRACE_SECONDS: "0" }),
      ),
    ).toEqual({ drainMs: 3_000, graceMs: 0 });
    expect(() => parseEnv({ DATABASE_URL: url, SHUTDOWN_DRAIN_SECONDS: "-1" })).toThrow(
      "SHUTDOWN_DRAIN_SECONDS must be between 0 and 600.",
    );
    expect(() => parseEnv({ DATABASE_URL: url, SHUTDOWN_GRACE_SECONDS: "1.5" })).toThrow(
      "SHUTDOWN_GRACE_SECONDS must be a whole number of seconds.",
    );
    expect(() => parseEnv({ DATABASE_URL: url, SHUTDOWN_GRACE_SECONDS: "soon" })).toThrow(
      "SHUTDOWN_GRACE_SECONDS must be a number of seconds.",
    );
  });
});

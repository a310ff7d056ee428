import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv, signUpPolicy } from "./env.server";

describe("configuration", () => {
  it("accepts a minimal environment and applies defaults", () => {
    const env = parseEnv({ DATABASE_URL: "postgresql://u:p@localhost:5432/db" });
    expect(env.PORT).toBe(3000);
    expect(env.TRUST_PROXY).toBe(false);
    expect(env.APP_ORIGIN).toBeUndefined();
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
});

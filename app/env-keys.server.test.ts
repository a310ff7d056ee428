// The audit digests' three settings, checked at start with a message naming each bad one:
// AUDIT_SIGNING_KEY (an Ed25519 private key in PEM, "\n" written out accepted), AUDIT_RETIRED_KEYS
// (Ed25519 public keys in PEM, one after another) and AUDIT_DIGEST_INTERVAL (1-86400 seconds).
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

const base = { DATABASE_URL: "postgresql://u:p@localhost:5432/db" };
const pem = (key: { export(options: { type: "pkcs8" | "spki"; format: "pem" }): string | Buffer }, type: "pkcs8" | "spki") =>
  String(key.export({ type, format: "pem" }));
const ed25519 = () => generateKeyPairSync("ed25519");

describe("the audit digests' configuration", () => {
  it("is optional: no key (nothing is sealed), no retired keys, one hour per digest", () => {
    const env = parseEnv(base);
    expect(env.AUDIT_SIGNING_KEY).toBeUndefined();
    expect(env.AUDIT_RETIRED_KEYS).toBeUndefined();
    expect(env.AUDIT_DIGEST_INTERVAL).toBe(3600);
  });

  it("takes an Ed25519 private key in PEM, with real line breaks or \\n written out", () => {
    const key = pem(ed25519().privateKey, "pkcs8");
    expect(parseEnv({ ...base, AUDIT_SIGNING_KEY: key }).AUDIT_SIGNING_KEY?.asymmetricKeyType).toBe("ed25519");
    const oneLine = key.trim().replace(/\n/g, "\\n");
    expect(parseEnv({ ...base, AUDIT_SIGNING_KEY: oneLine }).AUDIT_SIGNING_KEY?.asymmetricKeyType).toBe("ed25519");
  });

  it("names AUDIT_SIGNING_KEY when it is not a PEM private key, or not Ed25519", () => {
    expect(() => parseEnv({ ...base, AUDIT_SIGNING_KEY: "not a key" })).toThrow(
      /AUDIT_SIGNING_KEY is not a PEM private key \(-----BEGIN PRIVATE KEY-----\) \(make one with: openssl genpkey -algorithm ed25519\)/,
    );
    // A public key where the private one belongs.
    expect(() => parseEnv({ ...base, AUDIT_SIGNING_KEY: pem(ed25519().publicKey, "spki") })).toThrow(
      /AUDIT_SIGNING_KEY is not a PEM private key/,
    );
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    expect(() => parseEnv({ ...base, AUDIT_SIGNING_KEY: pem(rsa, "pkcs8") })).toThrow(/AUDIT_SIGNING_KEY is not an Ed25519 key/);
  });

  it("takes retired Ed25519 public keys one after another, and names a bad one by its place", () => {
    const [a, b] = [ed25519(), ed25519()];
    const retired = `${pem(a.publicKey, "spki")}${pem(b.publicKey, "spki")}`;
    expect(parseEnv({ ...base, AUDIT_RETIRED_KEYS: retired }).AUDIT_RETIRED_KEYS).toHaveLength(2);
    expect(() => parseEnv({ ...base, AUDIT_RETIRED_KEYS: "nothing here" })).toThrow(/AUDIT_RETIRED_KEYS holds no PEM public key/);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    expect(() => parseEnv({ ...base, AUDIT_RETIRED_KEYS: `${pem(a.publicKey, "spki")}${pem(rsa, "spki")}` })).toThrow(
      /AUDIT_RETIRED_KEYS key 2 is not an Ed25519 key/,
    );
  });

  it("takes AUDIT_DIGEST_INTERVAL of 1 to 86400 seconds, and names any other value", () => {
    expect(parseEnv({ ...base, AUDIT_DIGEST_INTERVAL: "1" }).AUDIT_DIGEST_INTERVAL).toBe(1);
    expect(parseEnv({ ...base, AUDIT_DIGEST_INTERVAL: "86400" }).AUDIT_DIGEST_INTERVAL).toBe(86_400);
    for (const bad of ["0", "86401", "-5", "1.5", "hourly"]) {
      expect(() => parseEnv({ ...base, AUDIT_DIGEST_INTERVAL: bad }), bad).toThrow(/AUDIT_DIGEST_INTERVAL/);
    }
    for (const outside of ["0", "86401", "-5"]) {
      expect(() => parseEnv({ ...base, AUDIT_DIGEST_INTERVAL: outside }), outside).toThrow(
        /^Invalid configuration:\n {2}- AUDIT_DIGEST_INTERVAL: AUDIT_DIGEST_INTERVAL must be between 1 and 86400\.$/,
      );
    }
    expect(() => parseEnv({ ...base, AUDIT_DIGEST_INTERVAL: "1.5" })).toThrow(/AUDIT_DIGEST_INTERVAL must be a whole number of seconds/);
  });
});

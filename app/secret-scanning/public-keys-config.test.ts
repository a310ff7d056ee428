// SECRET_SCANNING_PUBLIC_KEYS is read once at start: GitHub's published keys as JSON, each an
// ECDSA P-256 public key in PEM; anything else stops the start with a message naming the setting.
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";

const base = { DATABASE_URL: "postgres://x/y" };
const pem = (key: ReturnType<typeof generateKeyPairSync>["publicKey"]) => key.export({ type: "spki", format: "pem" }).toString();
const p256 = pem(generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey);

describe("SECRET_SCANNING_PUBLIC_KEYS", () => {
  it("is optional, and takes GitHub's list of keys", () => {
    expect(parseEnv(base).SECRET_SCANNING_PUBLIC_KEYS).toBeUndefined();
    const keys = parseEnv({
      ...base,
      SECRET_SCANNING_PUBLIC_KEYS: JSON.stringify([{ key_identifier: "abc", key: p256, is_current: true }]),
    }).SECRET_SCANNING_PUBLIC_KEYS;
    expect(keys?.map((k) => [k.id, k.key.asymmetricKeyType])).toEqual([["abc", "ec"]]);
  });

  it("stops the start with a clear message for anything else", () => {
    const rsa = pem(generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey);
    const p384 = pem(generateKeyPairSync("ec", { namedCurve: "secp384r1" }).publicKey);
    const cases: [string, RegExp][] = [
      ["not json", /it is not JSON/],
      ["[]", /not a non-empty array/],
      ['{"key_identifier":"a"}', /not a non-empty array/],
      [JSON.stringify([{ key: p256 }]), /entry 0 has no key_identifier/],
      [JSON.stringify([{ key_identifier: "a" }]), /entry 0 has no key/],
      [
        JSON.stringify([{ key_identifier: "a", key: "-----BEGIN PUBLIC KEY-----\nxx\n-----END PUBLIC KEY-----" }]),
        /entry 0's key is not a PEM public key/,
      ],
      [
        JSON.stringify([
          { key_identifier: "a", key: p256 },
          { key_identifier: "b", key: rsa },
        ]),
        /entry 1 is not an ECDSA P-256 key/,
      ],
      [JSON.stringify([{ key_identifier: "a", key: p384 }]), /entry 0 is not an ECDSA P-256 key/],
    ];
    for (const [value, message] of cases) {
      expect(() => parseEnv({ ...base, SECRET_SCANNING_PUBLIC_KEYS: value }), value).toThrow(message);
      expect(() => parseEnv({ ...base, SECRET_SCANNING_PUBLIC_KEYS: value }), value).toThrow(
        /SECRET_SCANNING_PUBLIC_KEYS: SECRET_SCANNING_PUBLIC_KEYS must be a JSON array/,
      );
    }
  });
});

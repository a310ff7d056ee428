// The signature check against what GitHub really sends: the example of GitHub's partner program
// documentation (its published public key, the key identifier, a payload and the base64 DER
// ECDSA signature GitHub made over those exact bytes). Our own tests sign with a key made by
// node:crypto, which would agree with a wrong encoding on both sides; this one cannot.
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { verifyReportSignature } from "./signature.server";

const GITHUB_KEY_ID = "90a421169f0a406205f1563a953312f0be898d3c7b6c06b681aa86a874555f4a";
const GITHUB_PUBLIC_KEY = [
  "-----BEGIN PUBLIC KEY-----",
  "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE9MJJHnMfn2+H4xL4YaPDA4RpJqUq",
  "kCmRCBnYERxZanmcpzQSXs1X/AljlKkbJ8qpVIW4clayyef9gWhFbNHWAA==",
  "-----END PUBLIC KEY-----",
].join("\n");
const PAYLOAD = '[{"token":"some_token","type":"some_type","url":"some_url"}]';
const SIGNATURE = "MEUCIQDKZokqnCjrRtw0tni+2Ltvl/uiMJ1EGumEsp1BsNr32AIgQY1YXD2nlj+XNfGK4rBfkMJ1JDOQcYXxa2sY8FNkrKc=";

const keys = parseEnv({
  DATABASE_URL: "postgres://x/y",
  SECRET_SCANNING_PUBLIC_KEYS: JSON.stringify([{ key_identifier: GITHUB_KEY_ID, key: GITHUB_PUBLIC_KEY, is_current: true }]),
}).SECRET_SCANNING_PUBLIC_KEYS!;

const headers = (signature: string, keyId = GITHUB_KEY_ID) =>
  new Headers({ "Github-Public-Key-Identifier": keyId, "Github-Public-Key-Signature": signature });

describe("verifyReportSignature with GitHub's documented example", () => {
  it("accepts GitHub's signature over the exact bytes it signed", () => {
    expect(verifyReportSignature(keys, headers(SIGNATURE), Buffer.from(PAYLOAD))).toEqual({ ok: true });
  });

  it("refuses it over other bytes (one space more), or under another key id", () => {
    expect(verifyReportSignature(keys, headers(SIGNATURE), Buffer.from(PAYLOAD.replace(",", ", ")))).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(verifyReportSignature(keys, headers(SIGNATURE, "0".repeat(64)), Buffer.from(PAYLOAD))).toEqual({
      ok: false,
      reason: "unknownKey",
    });
  });
});

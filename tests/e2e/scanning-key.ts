// The browser tests' stand-in for GitHub's secret scanning key: a P-256 key pair derived from a fixed
// seed (no private key in the repository), its public half given to the app by start-server.ts as
// SECRET_SCANNING_PUBLIC_KEYS, its private half signing the reports the tests post.
import { createECDH, createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from "node:crypto";

export const SCANNING_KEY_ID = "e2e-secret-scanning";

function keyPair(): { privateKey: KeyObject; publicPem: string } {
  const d = createHash("sha256").update("keyledger e2e secret scanning key").digest();
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey(); // 0x04 || x || y
  const jwk = {
    kty: "EC",
    crv: "P-256",
    d: d.toString("base64url"),
    x: point.subarray(1, 33).toString("base64url"),
    y: point.subarray(33).toString("base64url"),
  };
  const privateKey = createPrivateKey({ key: jwk, format: "jwk" });
  return { privateKey, publicPem: createPublicKey(privateKey).export({ type: "spki", format: "pem" }).toString() };
}

const pair = keyPair();

/** SECRET_SCANNING_PUBLIC_KEYS for the app under test. */
export const SCANNING_PUBLIC_KEYS = JSON.stringify([{ key_identifier: SCANNING_KEY_ID, key: pair.publicPem }]);

/** The headers GitHub would sign `body` with. */
export function scanningHeaders(body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "github-public-key-identifier": SCANNING_KEY_ID,
    "github-public-key-signature": sign("sha256", Buffer.from(body), pair.privateKey).toString("base64"),
  };
}

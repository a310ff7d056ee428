// GitHub's side of secret scanning, for the tests and the benchmark: an ECDSA P-256 key pair made
// here (the public half configured as SECRET_SCANNING_PUBLIC_KEYS would be), reports signed with it
// over their exact bytes, as GitHub signs them.
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";

export interface ScannerKeys {
  id: string;
  privateKey: KeyObject;
  /** The value of SECRET_SCANNING_PUBLIC_KEYS for this key alone. */
  configured: string;
}

export function scannerKeys(id = "test-key-1"): ScannerKeys {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
  return { id, privateKey, configured: JSON.stringify([{ key_identifier: id, key: pem, is_current: true }]) };
}

export interface Match {
  token: string;
  type?: string;
  url?: string;
  source?: string;
}

/** A report's body as GitHub sends it. */
export function reportBody(matches: Match[]): string {
  return JSON.stringify(
    matches.map((m) => ({
      token: m.token,
      type: m.type ?? "keyledger_api_key",
      url: m.url ?? "https://github.com/acme/app/blob/main/.env",
      source: m.source ?? "content",
    })),
  );
}

/** The two headers GitHub signs a report with. */
export function signedHeaders(keys: Pick<ScannerKeys, "id" | "privateKey">, body: string | Uint8Array): Record<string, string> {
  return {
    "Content-Type": "application/json",
    "Github-Public-Key-Identifier": keys.id,
    "Github-Public-Key-Signature": sign("sha256", typeof body === "string" ? Buffer.from(body) : body, keys.privateKey).toString("base64"),
  };
}

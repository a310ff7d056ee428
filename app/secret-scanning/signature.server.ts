// GitHub signs each secret scanning report with ECDSA P-256 over the raw body (SHA-256), and
// names the key in Github-Public-Key-Identifier; the base64 (DER) signature is in
// Github-Public-Key-Signature. The keys are GitHub's published ones, configured by the operator
// (SECRET_SCANNING_PUBLIC_KEYS). Checked over the exact bytes received, before they are parsed.
import { verify } from "node:crypto";
import type { ScanningPublicKey } from "~/env-keys.server";

export const KEY_ID_HEADER = "github-public-key-identifier";
export const SIGNATURE_HEADER = "github-public-key-signature";

export type SignatureCheck = { ok: true } | { ok: false; reason: "missing" | "unknownKey" | "mismatch" };

/** A DER ECDSA P-256 signature is at most 72 bytes (96 base64 characters); anything much longer is not one. */
const MAX_SIGNATURE_CHARS = 256;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function verifyReportSignature(keys: readonly ScanningPublicKey[], headers: Headers, body: Uint8Array): SignatureCheck {
  const keyId = headers.get(KEY_ID_HEADER);
  const signature = headers.get(SIGNATURE_HEADER);
  if (!keyId || !signature) return { ok: false, reason: "missing" };
  const key = keys.find((candidate) => candidate.id === keyId);
  if (!key) return { ok: false, reason: "unknownKey" };
  const trimmed = signature.trim();
  if (trimmed.length > MAX_SIGNATURE_CHARS || !BASE64.test(trimmed)) return { ok: false, reason: "mismatch" };
  try {
    return verify("sha256", body, key.key, Buffer.from(trimmed, "base64")) ? { ok: true } : { ok: false, reason: "mismatch" };
  } catch {
    // A signature that is not DER at all.
    return { ok: false, reason: "mismatch" };
  }
}

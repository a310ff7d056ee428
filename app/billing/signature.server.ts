// Signed provider events (docs/decisions/0029-billing.md). A provider signs each delivery with the
// shared secret (BILLING_WEBHOOK_SECRET) in one header:
//
//   KeyLedger-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
//
// Several v1 entries may be sent (e.g. while the secret is rotated); one matching is enough. The
// timestamp is part of what is signed and must be within five minutes of our clock, so a captured
// delivery cannot be replayed later (and within the window the event id makes a replay a no-op).
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "keyledger-signature";
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export function signPayload(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest("hex");
}

/** The header value a provider sends for `body` at `timestamp` (tests and provider adapters use it). */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${signPayload(secret, timestamp, body)}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: "missing" | "malformed" | "expired" | "mismatch" };

export function verifySignature(secret: string, header: string | null, body: string, now = Date.now()): SignatureCheck {
  if (header === null || header === "") return { ok: false, reason: "missing" };
  if (header.length > 1024) return { ok: false, reason: "malformed" };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value, ...rest] = part.trim().split("=");
    if (rest.length || value === undefined) return { ok: false, reason: "malformed" };
    if (key === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) return { ok: false, reason: "malformed" };
  if (Math.abs(now / 1000 - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: "expired" };
  const expected = Buffer.from(signPayload(secret, timestamp, body), "hex");
  // Every candidate is compared in constant time, and all of them are compared.
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(expected, Buffer.from(signature, "hex")) || matched;
  return matched ? { ok: true } : { ok: false, reason: "mismatch" };
}

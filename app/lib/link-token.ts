// The secret in a link we mail (an invitation's accept link, a password reset): 32 random bytes
// as base64url. Only its SHA-256 is stored, so a copy of the database opens nothing, and a value
// of any other form is refused before a query.
import { createHash } from "node:crypto";

export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newLinkToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

/** The SHA-256 of a token, as stored (bytes; `Buffer.from(digest).toString("hex")` for text columns). */
export function linkTokenDigest(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(token, "utf8").digest());
}

/** The SHA-256 of a token as the text columns store it (hex): reset, verification, address-change links. */
export function linkTokenHash(token: string): string {
  return Buffer.from(linkTokenDigest(token)).toString("hex");
}

/** A new link token and the hash to store for it. */
export function newHashedLinkToken(): { token: string; hash: string } {
  const token = newLinkToken();
  return { token, hash: linkTokenHash(token) };
}

// The secret format: `sk_` + 43 random base62 characters (256 bits) + 6 base62 characters of
// CRC32 over everything before them. Like GitHub's tokens: the fixed prefix makes leaked keys
// recognisable to secret scanners, and the checksum rejects mistyped or made-up keys without a
// database query (docs/decisions/0010-api-key-secret-format.md).
import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_MARKER = "sk_";
/** 43 × log2(62) ≈ 256.03 bits. */
const RANDOM_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const SECRET_LENGTH = SECRET_MARKER.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const SECRET_PATTERN = /^sk_[0-9A-Za-z]{49}$/;
/** What lists show: the marker and the first 8 random characters (47 of the 256 bits). */
const PREFIX_LENGTH = SECRET_MARKER.length + 8;

function base62Fixed(value: number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function checksumOf(head: string): string {
  return base62Fixed(crc32(head), CHECKSUM_LENGTH);
}

export interface NewSecret {
  secret: string;
  hash: Uint8Array<ArrayBuffer>;
  prefix: string;
}

export function generateSecret(): NewSecret {
  let head = SECRET_MARKER;
  // randomInt draws uniformly (rejection sampling), so every character carries log2(62) bits.
  for (let i = 0; i < RANDOM_LENGTH; i++) head += ALPHABET[randomInt(62)];
  const secret = head + checksumOf(head);
  return { secret, hash: new Uint8Array(hashSecret(secret)), prefix: secret.slice(0, PREFIX_LENGTH) };
}

/** True for a string that has our format and a matching checksum. No I/O. */
export function isWellFormedSecret(value: string): boolean {
  if (value.length !== SECRET_LENGTH || !SECRET_PATTERN.test(value)) return false;
  const head = value.slice(0, SECRET_LENGTH - CHECKSUM_LENGTH);
  return checksumOf(head) === value.slice(SECRET_LENGTH - CHECKSUM_LENGTH);
}

export function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

/**
 * The secret from an `Authorization: Bearer sk_...` header, or null when the header is missing,
 * not Bearer, or the token is not one of ours. Length is checked first so a huge header costs
 * nothing more than a comparison.
 */
export function bearerSecret(header: string | null | undefined): string | null {
  if (!header || header.length > 7 + SECRET_LENGTH + 16) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  const token = match?.[1];
  return token && isWellFormedSecret(token) ? token : null;
}

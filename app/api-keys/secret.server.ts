// The secret format: `sk_` + 43 random base62 characters (256 bits) + 24 base62 characters naming
// the key's organization (its UUID's 128 bits) + 6 base62 characters of CRC32 over everything
// before them. Like GitHub's tokens: the fixed prefix makes leaked keys recognisable to secret
// scanners, and the checksum rejects mistyped or made-up keys without a database query
// (docs/decisions/0010-api-key-secret-format.md). The organization part routes authenticate to the
// one shard that holds the key on a database distributed by organization (Citus): the secret says
// where to look, the hash says which key (docs/decisions/0048-routed-secrets.md).
//
// Secrets issued before the organization part (52 characters) keep working: they parse with no
// organization, which authenticate then looks up by the secret's hash.
import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_MARKER = "sk_";
/** 43 × log2(62) ≈ 256.03 bits. */
const RANDOM_LENGTH = 43;
/** Six base62 characters hold a 32-bit number (62^6 ≈ 2^35.7): the checksum, and each quarter of a UUID. */
const WORD_LENGTH = 6;
const CHECKSUM_LENGTH = WORD_LENGTH;
/** A UUID as four 32-bit words of six characters each: decoded with plain numbers, no BigInt. */
const ROUTING_LENGTH = 4 * WORD_LENGTH;
const HEAD_LENGTH = SECRET_MARKER.length + RANDOM_LENGTH;
/** Marker and base62 only; the length is checked on its own, first. */
const SECRET_CHARACTERS = /^sk_[0-9A-Za-z]+$/;
/** 76 characters: issued since issue 31. */
const ROUTED_LENGTH = HEAD_LENGTH + ROUTING_LENGTH + CHECKSUM_LENGTH;
/** 52 characters: issued before issue 31, accepted for as long as such keys live. */
const LEGACY_LENGTH = HEAD_LENGTH + CHECKSUM_LENGTH;
/** What lists show: the marker and the first 8 random characters (47 of the 256 bits). */
const PREFIX_LENGTH = SECRET_MARKER.length + 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const WORD_LIMIT = 2 ** 32;

function base62Fixed(value: number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** The number six (or fewer) base62 characters spell; the caller has checked the alphabet. */
function base62Value(text: string): number {
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // 0-9, A-Z, a-z in ALPHABET's order.
    value = value * 62 + (code <= 57 ? code - 48 : code <= 90 ? code - 55 : code - 61);
  }
  return value;
}

function checksumOf(head: string): string {
  return base62Fixed(crc32(head), CHECKSUM_LENGTH);
}

function encodeOrganization(organizationId: string): string {
  if (!UUID.test(organizationId)) throw new Error("An API key's organization id must be a UUID");
  const hex = organizationId.replaceAll("-", "");
  let out = "";
  for (let word = 0; word < 4; word++) out += base62Fixed(Number.parseInt(hex.slice(word * 8, word * 8 + 8), 16), WORD_LENGTH);
  return out;
}

/** Two hex digits per byte value. Number#toString(16) costs microseconds on values above 2^31
 * (V8 formats them as doubles), on the hot path of every authentication. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** A 32-bit word as 8 hex digits. */
function hexWord(value: number): string {
  return (
    HEX_BYTES[Math.floor(value / 0x1000000)]! +
    HEX_BYTES[(value >>> 16) & 0xff]! +
    HEX_BYTES[(value >>> 8) & 0xff]! +
    HEX_BYTES[value & 0xff]!
  );
}

/** The UUID the routing part names, or null when a word does not fit 32 bits (never issued). */
function decodeOrganization(routing: string): string | null {
  let hex = "";
  for (let at = 0; at < ROUTING_LENGTH; at += WORD_LENGTH) {
    const value = base62Value(routing.slice(at, at + WORD_LENGTH));
    if (value >= WORD_LIMIT) return null;
    hex += hexWord(value);
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface NewSecret {
  secret: string;
  hash: Uint8Array<ArrayBuffer>;
  prefix: string;
}

/** A new secret for a key of `organizationId` (a UUID). */
export function generateSecret(organizationId: string): NewSecret {
  let head = SECRET_MARKER;
  // randomInt draws uniformly (rejection sampling), so every character carries log2(62) bits.
  for (let i = 0; i < RANDOM_LENGTH; i++) head += ALPHABET[randomInt(62)];
  head += encodeOrganization(organizationId);
  const secret = head + checksumOf(head);
  return { secret, hash: new Uint8Array(hashSecret(secret)), prefix: secret.slice(0, PREFIX_LENGTH) };
}

/** A secret as presented: the whole text (its hash finds the key) and the organization it names,
 * null for a secret of the older format, which names none. */
export interface PresentedSecret {
  secret: string;
  organizationId: string | null;
}

/** The secret and its organization when `value` has one of our formats and a matching checksum,
 * else null. No I/O; the length is compared before anything looks at the characters. */
export function parseSecret(value: string): PresentedSecret | null {
  if (value.length !== ROUTED_LENGTH && value.length !== LEGACY_LENGTH) return null;
  if (!SECRET_CHARACTERS.test(value)) return null;
  const checksumAt = value.length - CHECKSUM_LENGTH;
  if (checksumOf(value.slice(0, checksumAt)) !== value.slice(checksumAt)) return null;
  if (value.length === LEGACY_LENGTH) return { secret: value, organizationId: null };
  const organizationId = decodeOrganization(value.slice(HEAD_LENGTH, checksumAt));
  return organizationId ? { secret: value, organizationId } : null;
}

/** True for a string that has one of our formats and a matching checksum. No I/O. */
export function isWellFormedSecret(value: string): boolean {
  return parseSecret(value) !== null;
}

export function hashSecret(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

/**
 * The secret from an `Authorization: Bearer sk_...` header, or null when the header is missing,
 * not Bearer, or the token is not one of ours. Length is checked first so a huge header costs
 * nothing more than a comparison.
 */
export function bearerSecret(header: string | null | undefined): PresentedSecret | null {
  if (!header || header.length > 7 + ROUTED_LENGTH + 16) return null;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  const token = match?.[1];
  return token ? parseSecret(token) : null;
}

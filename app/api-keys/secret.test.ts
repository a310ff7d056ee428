// The secret format of decision 0010 with the organization part of decision 0048: what is issued
// parses back to its organization, secrets of the older format still parse (with no organization),
// and anything else, a changed character, a wrong length, junk, is refused by the format and the
// checksum alone. This module imports nothing that could reach a database.
import { randomInt, randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { bearerSecret, generateSecret, hashSecret, isWellFormedSecret, parseSecret } from "./secret.server";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `head` with a correct checksum appended: how a forger would finish a secret. */
function withChecksum(head: string): string {
  let value = crc32(head);
  let checksum = "";
  for (let i = 0; i < 6; i++) {
    checksum = ALPHABET[value % 62] + checksum;
    value = Math.floor(value / 62);
  }
  return head + checksum;
}

const ROUTING = { from: 46, to: 70 };

/** A secret as issued before issue 31 (decision 0010): 43 random characters and the checksum. */
function legacySecret(): { secret: string } {
  let head = "sk_";
  for (let i = 0; i < 43; i++) head += ALPHABET[randomInt(62)];
  return { secret: withChecksum(head) };
}

describe("routed secrets", () => {
  it("are sk_, 43 random characters, 24 naming the organization and a checksum, 76 in all", () => {
    const organizationId = randomUUID();
    const { secret, prefix, hash } = generateSecret(organizationId);
    expect(secret).toMatch(/^sk_[0-9A-Za-z]{73}$/);
    expect(prefix).toBe(secret.slice(0, 11));
    expect(Buffer.from(hash).equals(hashSecret(secret))).toBe(true);
    expect(parseSecret(secret)).toEqual({ secret, organizationId });
  });

  it("round-trip every organization id, the extremes included, as lower-case UUIDs", () => {
    const ids = [
      "00000000-0000-0000-0000-000000000000",
      "ffffffff-ffff-ffff-ffff-ffffffffffff",
      "FFFFFFFF-0000-7FFF-8000-00000000FFFF",
      "019ab3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b",
      ...Array.from({ length: 200 }, () => randomUUID()),
    ];
    for (const id of ids) {
      const { secret } = generateSecret(id);
      expect(secret).toHaveLength(76);
      expect(parseSecret(secret)?.organizationId).toBe(id.toLowerCase());
    }
  });

  it("refuse an organization id that is not a UUID when issuing", () => {
    expect(() => generateSecret("not-a-uuid")).toThrow(/UUID/);
    expect(() => generateSecret("")).toThrow(/UUID/);
  });

  it("keep the random part random: two keys of one organization share only the marker before it", () => {
    const organizationId = randomUUID();
    const many = Array.from({ length: 1000 }, () => generateSecret(organizationId));
    expect(new Set(many.map((s) => s.secret)).size).toBe(1000);
    expect(new Set(many.map((s) => s.prefix)).size).toBe(1000);
    expect(new Set(many.map((s) => s.secret.slice(ROUTING.from, ROUTING.to))).size).toBe(1);
  });

  it("catch every single-character change, in the routing part as anywhere else", () => {
    const { secret } = generateSecret(randomUUID());
    let tried = 0;
    let caught = 0;
    for (let i = 3; i < secret.length; i++) {
      for (const c of ALPHABET) {
        if (c === secret[i]) continue;
        tried++;
        if (!isWellFormedSecret(secret.slice(0, i) + c + secret.slice(i + 1))) caught++;
      }
    }
    expect(tried).toBe(73 * 61);
    expect(caught).toBe(tried);
  });

  it("parse a forged routing part with a recomputed checksum as the organization it names (the database then finds no key)", () => {
    const mine = generateSecret(randomUUID()).secret;
    const theirs = randomUUID();
    const theirRouting = generateSecret(theirs).secret.slice(ROUTING.from, ROUTING.to);
    const forged = withChecksum(mine.slice(0, ROUTING.from) + theirRouting);
    expect(parseSecret(forged)).toEqual({ secret: forged, organizationId: theirs });
    expect(hashSecret(forged).equals(hashSecret(mine))).toBe(false);
  });

  it("refuse a routing word beyond 32 bits even with a correct checksum (never issued)", () => {
    const { secret } = generateSecret(randomUUID());
    // "zzzzzz" is 62^6 - 1, above 2^32 - 1.
    const beyond = withChecksum(secret.slice(0, ROUTING.from) + "zzzzzz" + secret.slice(ROUTING.from + 6, ROUTING.to));
    expect(beyond).toHaveLength(76);
    expect(parseSecret(beyond)).toBeNull();
    const largest = withChecksum(secret.slice(0, ROUTING.from) + "4gfFC3" + secret.slice(ROUTING.from + 6, ROUTING.to));
    expect(parseSecret(largest)?.organizationId).toMatch(/^ffffffff-/);
  });
});

describe("secrets of the older format (52 characters, issued before issue 31)", () => {
  it("still parse, naming no organization", () => {
    const old = legacySecret();
    expect(old.secret).toHaveLength(52);
    expect(parseSecret(old.secret)).toEqual({ secret: old.secret, organizationId: null });
    expect(bearerSecret(`Bearer ${old.secret}`)).toEqual({ secret: old.secret, organizationId: null });
  });

  it("still have every single-character change caught", () => {
    const { secret } = legacySecret();
    for (let i = 3; i < secret.length; i++) {
      for (const c of ALPHABET) if (c !== secret[i]) expect(isWellFormedSecret(secret.slice(0, i) + c + secret.slice(i + 1))).toBe(false);
    }
  });
});

describe("junk", () => {
  const routed = generateSecret(randomUUID()).secret;
  const old = legacySecret().secret;

  it("of every other length is refused, whatever its checksum says", () => {
    for (let length = 0; length <= 120; length++) {
      if (length === 52 || length === 76) continue;
      const candidate = length > 9 ? withChecksum(`sk_${"A".repeat(length - 9)}`) : "sk_AAAAAA".slice(0, length);
      expect(parseSecret(candidate), `length ${length}`).toBeNull();
    }
    expect(parseSecret(routed.slice(0, -1))).toBeNull();
    expect(parseSecret(`${routed}A`)).toBeNull();
    expect(parseSecret(old.slice(0, -1))).toBeNull();
  });

  it("of the right lengths is refused for its marker, its characters or its checksum", () => {
    for (const secret of [routed, old]) {
      expect(parseSecret(`pk_${secret.slice(3)}`)).toBeNull();
      expect(parseSecret(`SK_${secret.slice(3)}`)).toBeNull();
      expect(parseSecret(`${secret.slice(0, 20)}-${secret.slice(21)}`)).toBeNull();
      expect(parseSecret(`${secret.slice(0, 20)}é${secret.slice(21)}`)).toBeNull();
      expect(parseSecret(`${secret.slice(0, -6)}000000`)).toBeNull();
      expect(parseSecret(`sk_${"A".repeat(secret.length - 3)}`)).toBeNull();
    }
  });

  it("in a header is refused by length before anything else, and only Bearer with one token is read", () => {
    expect(bearerSecret(`Bearer ${routed}`)).toEqual(parseSecret(routed));
    expect(bearerSecret(`bearer   ${routed}  `)).toEqual(parseSecret(routed));
    expect(bearerSecret(`Bearer ${routed}${" ".repeat(40)}`)).toBeNull();
    expect(bearerSecret(`Bearer ${"x".repeat(1024 * 1024)}`)).toBeNull();
    expect(bearerSecret(`Basic ${routed}`)).toBeNull();
    expect(bearerSecret(`Bearer ${routed} ${routed}`)).toBeNull();
    expect(bearerSecret(routed)).toBeNull();
    expect(bearerSecret("")).toBeNull();
    expect(bearerSecret(null)).toBeNull();
    expect(bearerSecret(undefined)).toBeNull();
  });
});

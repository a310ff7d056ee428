// What the integrator page (/docs/authenticate) and docs/secret-scanning/gitleaks.toml tell secret
// scanners, held against what the app issues and accepts:
// - the gitleaks rule in docs/ is the page's rule, and its regex finds freshly issued secrets of
//   both lengths in text, and none of the near misses;
// - the checksum rule, implemented here from the page's words alone (its own CRC32 table, not
//   zlib's), says "well formed" exactly when the app's parser does, on valid and corrupted secrets.
import { randomInt, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import en from "~/i18n/locales/en/integrators";
import { CURRENT_SECRET, GITLEAKS_RULE, LEGACY_SECRET, SECRET_PATTERN, SECRET_SCAN_PATTERN, gitleaksToml } from "./secret-format";
import { generateSecret, parseSecret } from "./secret.server";

const steps = en.format.checksumSteps;

// The page's rule, step by step.
// "Take everything before the last 6 characters, “sk_” included, as ASCII bytes."
// "Compute their CRC32 (IEEE 802.3: the CRC32 of zlib, gzip and PNG) as an unsigned 32-bit number."
// "Write that number in base 62 with the digits 0–9, A–Z, a–z in this order, most significant digit
//  first, padded with leading 0 to 6 digits."
// "The secret is well formed when those 6 digits equal its last 6 characters."
const CRC_TABLE = Array.from({ length: 256 }, (_, byte) => {
  let value = byte;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32Ieee(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(value: number, width: number): string {
  let text = "";
  for (; value > 0; value = Math.floor(value / 62)) text = DIGITS[value % 62] + text;
  return text.padStart(width, "0");
}

function checksumByThePage(head: string): string {
  return base62(crc32Ieee(new TextEncoder().encode(head)), 6);
}

/** The page's whole check: the format (its anchored regular expression), then the checksum. */
function wellFormedByThePage(value: string): boolean {
  if (!new RegExp(SECRET_PATTERN).test(value)) return false;
  return checksumByThePage(value.slice(0, -6)) === value.slice(-6);
}

function randomBase62(length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += DIGITS[randomInt(62)];
  return text;
}

/** A secret of the older format, finished the way the page says. */
function legacySecret(): string {
  const head = `sk_${randomBase62(43)}`;
  return head + checksumByThePage(head);
}

/** Shannon entropy per character, as gitleaks computes it for its `entropy` threshold. */
function shannonEntropy(text: string): number {
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) entropy -= (count / text.length) * Math.log2(count / text.length);
  return entropy;
}

const scan = (text: string) => [...text.matchAll(new RegExp(SECRET_SCAN_PATTERN, "g"))].map((match) => match[0]);

describe("the page states the rule this file implements", () => {
  it("in its own words", () => {
    expect(steps.take).toContain("before the last 6 characters");
    expect(steps.take).toContain("sk_");
    expect(steps.crc).toContain("CRC32 (IEEE 802.3");
    expect(steps.crc).toContain("unsigned 32-bit");
    expect(steps.base62).toContain("base 62 with the digits 0–9, A–Z, a–z in this order");
    expect(steps.base62).toContain("most significant digit first, padded with leading 0 to 6 digits");
    expect(steps.compare).toContain("equal its last 6 characters");
  });
});

describe("the checksum rule as the page states it", () => {
  const secrets = [...Array.from({ length: 200 }, () => generateSecret(randomUUID()).secret), ...Array.from({ length: 50 }, legacySecret)];

  it("accepts every freshly issued secret, and the app accepts the secrets it finishes", () => {
    for (const secret of secrets) {
      expect(wellFormedByThePage(secret), secret).toBe(true);
      expect(parseSecret(secret), secret).not.toBeNull();
    }
  });

  it("agrees with the app's parser on corrupted secrets: a changed character, a swap, a cut, an addition", () => {
    let refused = 0;
    for (const secret of secrets.slice(0, 60)) {
      const at = randomInt(3, secret.length);
      const changed = secret.slice(0, at) + DIGITS[(DIGITS.indexOf(secret[at]!) + 1 + randomInt(61)) % 62] + secret.slice(at + 1);
      const swapped = secret.slice(0, at - 1) + secret[at] + secret[at - 1] + secret.slice(at + 1);
      const corrupted = [changed, swapped, secret.slice(0, -1), `${secret}0`, secret.replace("sk_", "sK_"), secret.toLowerCase()];
      for (const value of corrupted) {
        // A corruption can leave the secret well formed only by chance (a swap of equal characters).
        expect(wellFormedByThePage(value), value).toBe(parseSecret(value) !== null);
        if (parseSecret(value) === null) refused++;
      }
    }
    expect(refused).toBeGreaterThan(300);
  });

  it("agrees with the app's parser on made-up strings of the right shape", () => {
    for (let i = 0; i < 500; i++) {
      const value = `sk_${randomBase62(i % 2 ? 73 : 49)}`;
      expect(wellFormedByThePage(value), value).toBe(parseSecret(value) !== null);
    }
  });
});

describe("the regular expressions", () => {
  it("anchored: whole values of both lengths, nothing else", () => {
    const current = generateSecret(randomUUID()).secret;
    const legacy = legacySecret();
    expect(current).toHaveLength(CURRENT_SECRET.length);
    expect(legacy).toHaveLength(LEGACY_SECRET.length);
    expect(new RegExp(CURRENT_SECRET.pattern).test(current)).toBe(true);
    expect(new RegExp(LEGACY_SECRET.pattern).test(legacy)).toBe(true);
    for (const value of [current, legacy]) expect(new RegExp(SECRET_PATTERN).test(value)).toBe(true);
    for (const value of [`${current}x`, current.slice(0, -1), ` ${legacy}`]) expect(new RegExp(SECRET_PATTERN).test(value)).toBe(false);
  });

  it("scanning: finds issued secrets of both lengths wherever they stand in text", () => {
    const current = generateSecret(randomUUID()).secret;
    const legacy = legacySecret();
    const text = [
      `API_KEY=${current}`,
      `curl -H "Authorization: Bearer ${legacy}" https://keys.example.com`,
      `{"key":"${current}"}`,
      `'${legacy}',`,
      current,
    ].join("\n");
    expect(scan(text)).toEqual([current, legacy, current, legacy, current]);
  });

  it("scanning: ignores near misses", () => {
    const current = generateSecret(randomUUID()).secret;
    const nearMisses = [
      `sk_${randomBase62(72)}`,
      `sk_${randomBase62(74)}`,
      `sk_${randomBase62(48)}`,
      `sk_${randomBase62(50)}`,
      `sk_${randomBase62(60)}`,
      `x${current}`,
      `${current}_suffix`,
      `${current}0`,
      current.replace("sk_", "sk-"),
      current.replace("sk_", "SK_"),
      current.replace("sk_", "pk_"),
      `${current.slice(0, 40)}-${current.slice(41)}`,
      `${current.slice(0, 40)}+${current.slice(41)}`,
    ];
    for (const value of nearMisses) expect(scan(`token: ${value} end`), value).toEqual([]);
  });
});

describe("docs/secret-scanning/gitleaks.toml", () => {
  const config = parse(readFileSync(join(import.meta.dirname, "..", "..", "docs", "secret-scanning", "gitleaks.toml"), "utf8")) as {
    extend?: { useDefault?: boolean };
    rules: { id: string; description: string; regex: string; entropy: number; keywords: string[] }[];
  };

  it("holds the page's rule, keeping gitleaks' own rules beside it", () => {
    expect(config.extend?.useDefault).toBe(true);
    expect(config.rules).toEqual([{ ...GITLEAKS_RULE, keywords: [...GITLEAKS_RULE.keywords] }]);
    expect(parse(gitleaksToml())).toEqual({ rules: config.rules });
  });

  it("matches freshly issued secrets above its entropy threshold, and a placeholder below it", () => {
    const rule = config.rules[0]!;
    for (let i = 0; i < 100; i++) {
      const secret = i % 4 ? generateSecret(randomUUID()).secret : legacySecret();
      expect(new RegExp(rule.regex).exec(`KEY="${secret}"`)?.[0]).toBe(secret);
      expect(shannonEntropy(secret)).toBeGreaterThan(rule.entropy);
      expect(rule.keywords.some((keyword) => secret.includes(keyword))).toBe(true);
    }
    const placeholder = `sk_${"x".repeat(73)}`;
    expect(new RegExp(rule.regex).test(placeholder)).toBe(true);
    expect(shannonEntropy(placeholder)).toBeLessThan(rule.entropy);
  });
});

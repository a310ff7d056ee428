// The secret format as outsiders need it: for the integrator page, the OpenAPI document's bearer
// scheme and the gitleaks rule in docs/secret-scanning/gitleaks.toml. The rules themselves live in
// secret.server.ts (decisions 0010 and 0048); app/api-keys/secret-format.test.ts proves these
// patterns accept what generateSecret issues and agree with parseSecret, so the two cannot drift.
// No Node imports: the page renders it in the browser too.

/** Issued since decision 0048: `sk_` + 43 random + 24 naming the organization + 6 of checksum. */
export const CURRENT_SECRET = { length: 76, pattern: "^sk_[0-9A-Za-z]{73}$" } as const;
/** Issued before decision 0048: `sk_` + 43 random + 6 of checksum; such keys keep working. */
export const LEGACY_SECRET = { length: 52, pattern: "^sk_[0-9A-Za-z]{49}$" } as const;

/** Either format, anchored: what a well-formed secret looks like, checksum aside. */
export const SECRET_PATTERN = "^sk_(?:[0-9A-Za-z]{73}|[0-9A-Za-z]{49})$";

/**
 * For finding secrets in text (source files, logs, tickets): either length, standing alone. `\b`
 * on both sides: a secret glued to a longer word (`xsk_…`, 74 characters) is not one of ours. RE2
 * (gitleaks, Go) and JavaScript read it the same way.
 */
export const SECRET_SCAN_PATTERN = "\\bsk_(?:[0-9A-Za-z]{73}|[0-9A-Za-z]{49})\\b";

/** The base62 alphabet, in the order the checksum's digits use it. */
export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The parts of a current secret, in order, with their lengths (they add up to 76). */
export const CURRENT_SECRET_PARTS = [
  { part: "marker", length: 3 },
  { part: "random", length: 43 },
  { part: "organization", length: 24 },
  { part: "checksum", length: 6 },
] as const;

/** The gitleaks rule (docs/secret-scanning/gitleaks.toml holds the same rule; a test compares them). */
export const GITLEAKS_RULE = {
  id: "keyledger-api-key",
  description: "KeyLedger API key (76 or 52 characters, CRC32 checksum last)",
  regex: SECRET_SCAN_PATTERN,
  keywords: ["sk_"],
  /** Shannon entropy per character: issued secrets have about 5; placeholders like sk_xxxx… have far less. */
  entropy: 3.5,
} as const;

/** The rule as gitleaks' TOML, as the page shows it for copying. */
export function gitleaksToml(): string {
  return [
    "[[rules]]",
    `id = "${GITLEAKS_RULE.id}"`,
    `description = "${GITLEAKS_RULE.description}"`,
    `regex = '''${GITLEAKS_RULE.regex}'''`,
    `entropy = ${GITLEAKS_RULE.entropy}`,
    `keywords = [${GITLEAKS_RULE.keywords.map((keyword) => `"${keyword}"`).join(", ")}]`,
  ].join("\n");
}

// Canonical JSON (RFC 8785, the JSON Canonicalization Scheme, for the values JSON.parse gives):
// object keys sorted by their UTF-16 code units, no whitespace, strings and numbers written as
// ECMAScript's JSON.stringify writes them. Equal values give equal text whatever the key order, so
// the text can be hashed and signed. `undefined` members are left out (as JSON.stringify does).
// The offline verifier (scripts/verify-audit-export.mjs) carries its own copy of these few lines,
// because it must run with nothing but Node; tests/integration/audit-integrity-offline.test.ts holds
// the two to the same output.

/** The canonical text of a JSON value. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

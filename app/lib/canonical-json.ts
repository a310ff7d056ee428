// Canonical JSON (RFC 8785, the JSON Canonicalization Scheme, for the values JSON.parse gives):
// object keys sorted by their UTF-16 code units, no whitespace, strings and numbers written as
// ECMAScript's JSON.stringify writes them. Equal values give equal text whatever the key order, so
// the text can be hashed and signed. `undefined` members are left out (as JSON.stringify does).
// The offline verifier (scripts/verify-audit-export.mjs) carries its own copy of these few lines,
// because it must run with nothing but Node; tests/integration/audit-integrity-offline.test.ts holds
// the two to the same output.

/** The canonical text of a JSON value. */
export function canonicalJson(value: unknown): string {
  // Loops rather than entries/filter/map/join: the digest job writes this for 100,000 events a
  // second, and every audited write hashes its event with it (canonical-json.test.ts holds this to
  // the plain statement of the rule).
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + (canonicalJson(value[i]) ?? "");
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  // sort() without a comparator orders strings by their UTF-16 code units, as RFC 8785 asks.
  const keys = Object.keys(record).sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:${canonicalJson(member)}`;
    first = false;
  }
  return `${out}}`;
}

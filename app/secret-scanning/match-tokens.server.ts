// Which reported tokens are our keys. Format and checksum first (parseSecret: no I/O), so junk
// costs no query; then the SHA-256 of each well-formed token, looked up in as few statements as a
// payload allows, whatever its size: a secret of today's format names its organization, one of the
// older format (52 characters) finds it through the lookup table (and, for the rare key without a
// lookup row, the transition's fallback by hash, as authenticate does: decision 0048); then one
// statement reads every matching key of every named organization.
import { pool } from "~/db.server";
import { hashSecret, parseSecret } from "~/api-keys/secret.server";

/** A reported token that is one of our keys, as it was when matched. */
export interface MatchedKey {
  /** The reported matches (their positions in the payload) that are this key's secret. */
  positions: number[];
  organizationId: string;
  keyId: string;
  /** The secret's SHA-256 in hex (the key's current hash when matched). */
  hash: string;
}

type Candidate = { position: number; hash: Buffer; organizationId: string | null };

/** A token's well-formed candidates: parsed, hashed, nothing else. */
function candidatesOf(tokens: readonly string[]): Candidate[] {
  const candidates: Candidate[] = [];
  tokens.forEach((token, position) => {
    const presented = parseSecret(token);
    if (presented) candidates.push({ position, hash: hashSecret(presented.secret), organizationId: presented.organizationId });
  });
  return candidates;
}

/** The organizations of secrets of the older format, by hash (hex → organization). */
async function legacyOrganizations(hashes: Buffer[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (hashes.length === 0) return found;
  type Row = { organization_id: string; secret_hash: Buffer };
  const lookedUp = await pool().query<Row>(
    "SELECT organization_id::text, secret_hash FROM api_key_legacy_secrets WHERE secret_hash = ANY($1::bytea[])",
    [hashes],
  );
  for (const row of lookedUp.rows) found.set(row.secret_hash.toString("hex"), row.organization_id);
  const unknown = hashes.filter((hash) => !found.has(hash.toString("hex")));
  if (unknown.length > 0) {
    // Decision 0048's transition: a key the previous release issued during a rolling upgrade has
    // no lookup row. Reaches every shard on Citus; listed in tests/statements/allowed-scatter.ts.
    const unrouted = await pool().query<Row>(
      "SELECT organization_id::text, secret_hash FROM api_keys WHERE secret_hash = ANY($1::bytea[])",
      [unknown],
    );
    for (const row of unrouted.rows) found.set(row.secret_hash.toString("hex"), row.organization_id);
  }
  return found;
}

/** The reported tokens that are secrets of our keys (revoked and expired keys included: they are ours). */
export async function matchKeys(tokens: readonly string[]): Promise<MatchedKey[]> {
  const candidates = candidatesOf(tokens);
  if (candidates.length === 0) return [];
  const legacy = await legacyOrganizations(candidates.filter((c) => c.organizationId === null).map((c) => c.hash));
  // The (organization, hash) pairs to look for; the key read below must match a pair exactly, so
  // a secret naming organization A never matches a key of B.
  const wanted = new Map<string, Candidate[]>();
  for (const candidate of candidates) {
    const hex = candidate.hash.toString("hex");
    const organizationId = candidate.organizationId ?? legacy.get(hex);
    if (!organizationId) continue;
    const pair = `${organizationId}:${hex}`;
    wanted.set(pair, [...(wanted.get(pair) ?? []), candidate]);
  }
  if (wanted.size === 0) return [];
  const organizations = [...new Set([...wanted.keys()].map((pair) => pair.slice(0, 36)))];
  const hashes = [...new Set(candidates.map((c) => c.hash.toString("hex")))].map((hex) => Buffer.from(hex, "hex"));
  const rows = await pool().query<{ organization_id: string; id: string; secret_hash: Buffer }>(
    `SELECT organization_id::text, id::text, secret_hash FROM api_keys
      WHERE organization_id = ANY($1::uuid[]) AND secret_hash = ANY($2::bytea[])`,
    [organizations, hashes],
  );
  const matched: MatchedKey[] = [];
  for (const row of rows.rows) {
    const hash = row.secret_hash.toString("hex");
    const reported = wanted.get(`${row.organization_id}:${hash}`);
    if (reported) matched.push({ positions: reported.map((c) => c.position), organizationId: row.organization_id, keyId: row.id, hash });
  }
  return matched;
}

// Secrets as releases before issue 31 issued them (52 characters: `sk_` + 43 random base62
// characters + CRC32 in 6 base62 characters, no organization in them), and keys inserted the way
// those releases inserted them (a row in api_keys and nothing else). Written out here, not taken
// from app/api-keys/secret.server.ts, so the tests and benchmarks that use them check that the
// current code still accepts what the old code made (docs/decisions/0048-routed-secrets.md).
import { createHash, randomInt, randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";
import type pg from "pg";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62Fixed(value: number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export interface LegacySecret {
  secret: string;
  hash: Buffer;
  prefix: string;
}

/** A secret in the format of decision 0010, as generateSecret made it before issue 31. */
export function legacySecret(): LegacySecret {
  let head = "sk_";
  for (let i = 0; i < 43; i++) head += ALPHABET[randomInt(62)];
  const secret = head + base62Fixed(crc32(head), 6);
  return { secret, hash: createHash("sha256").update(secret, "utf8").digest(), prefix: secret.slice(0, 11) };
}

/** Inserts a key the way the previous release did: its row only, no lookup row. Returns its id. */
export async function insertLegacyKey(
  client: pg.Client | pg.Pool,
  key: { organizationId: string; secret: LegacySecret; name?: string; scopes?: string[]; expiresAt?: Date | null; revokedAt?: Date | null },
): Promise<string> {
  const id = randomUUID();
  await client.query(
    `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, expires_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      key.organizationId,
      key.name ?? `legacy-${id.slice(0, 8)}`,
      key.scopes ?? ["audit:view"],
      key.secret.hash,
      key.secret.prefix,
      key.expiresAt ?? null,
      key.revokedAt ?? null,
    ],
  );
  return id;
}

// Seeding helpers the benchmarks share (bench/audit-view.ts, bench/audit-export.ts).
import { createHash, randomBytes } from "node:crypto";
import type pg from "pg";

/** A UUID v7 made in SQL from a timestamptz expression, so ids follow time as the app's do. */
export const uuidV7 = (ts: string) =>
  `(lpad(to_hex(floor(extract(epoch from ${ts}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid`;

/** A session token as the app makes them (32 base32 characters) and its stored id. */
export function sessionToken(): { token: string; id: string } {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  const token = Array.from(randomBytes(32), (b) => alphabet[b % 32]).join("");
  return { token, id: createHash("sha256").update(token).digest("hex") };
}

/** "Big", "Small" and "Other 1".."Other n" on the Enterprise plan. */
export async function insertOrganizations(client: pg.Client, big: string, small: string, others: string[]): Promise<void> {
  await client.query(
    `INSERT INTO organizations (id, name, slug, plan_id)
     SELECT id, name, slug, 'enterprise' FROM unnest($1::uuid[], $2::text[], $3::text[]) AS o(id, name, slug)`,
    [
      [big, small, ...others],
      ["Big", "Small", ...others.map((_, i) => `Other ${i + 1}`)],
      ["big", "small", ...others.map((_, i) => `other-${i + 1}`)],
    ],
  );
}

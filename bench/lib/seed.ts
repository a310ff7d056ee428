// Seeding helpers the benchmarks share (bench/audit-view.ts, bench/audit-export.ts).
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../scripts/lib/embedded-postgres.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { migrate } from "../../scripts/lib/migrate.ts";

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
  // Each slug's lookup row, as the app writes it (decision 0050).
  await client.query(
    `INSERT INTO organization_slugs (slug, organization_id) SELECT slug, id FROM organizations WHERE id = ANY($1::uuid[])`,
    [[big, small, ...others]],
  );
}

export interface SeededDatabase<S> {
  url: string;
  /** PostgreSQL's data directory (a standby's base backup copies it: bench/replica-reads.ts). */
  dataDir: string;
  client: pg.Client;
  seeded: S;
  /** Events in the database, all organizations. */
  events: number;
  /** Stops PostgreSQL; removes its directory unless it is kept. */
  close(): Promise<void>;
}

/**
 * An embedded PostgreSQL, migrated and seeded, the client connected. With `keptDir` (a
 * BENCH_*_DATA_DIR) the database and what `seed` returned stay there between runs, so a figure
 * can be looked into without seeding again; without it all lives in a temporary directory.
 */
export async function openSeededDatabase<S>(options: {
  keptDir: string | undefined;
  tempPrefix: string;
  /** Names the kept seed, so a run of another size seeds afresh. */
  seedName: string;
  settings?: Record<string, string>;
  /** Runs after migrating, before seeding (e.g. CREATE EXTENSION). */
  prepare?: (client: pg.Client) => Promise<unknown>;
  seed: (client: pg.Client) => Promise<S>;
}): Promise<SeededDatabase<S>> {
  const { keptDir } = options;
  const dataRoot = keptDir ?? (await mkdtemp(join(tmpdir(), options.tempPrefix)));
  const seededFile = join(dataRoot, `seeded-${options.seedName}.json`);
  const dataDir = join(dataRoot, "data");
  const database = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: "bench",
    ...(options.settings ? { settings: options.settings } : {}),
  });
  const client = new pg.Client({ connectionString: database.url });
  const close = async () => {
    await client.end().catch(() => {});
    await database.stop().catch(() => {});
    if (!keptDir) await rm(dataRoot, { recursive: true, force: true }).catch(() => {});
  };
  try {
    await migrate(database.url);
    await client.connect();
    await options.prepare?.(client);
    const seedStarted = Date.now();
    const seeded: S = existsSync(seededFile) ? (JSON.parse(await readFile(seededFile, "utf8")) as S) : await options.seed(client);
    if (keptDir) await writeFile(seededFile, JSON.stringify(seeded));
    const events = (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_events")).rows[0]!.n;
    console.log(`Seeded ${events.toLocaleString("en")} events in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s.`);
    return { url: database.url, dataDir, client, seeded, events, close };
  } catch (error) {
    await close();
    throw error;
  }
}

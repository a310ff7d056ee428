// The migrations of decision 0048 convert a database in place: this file's own database is taken
// back to the schema before them (emptied, then migrated up to 20261201000001), given keys the way
// the release before issued them (52-character secrets: active, expired, revoked; last used set)
// and some audit history, then migrated to the end. Every old secret keeps its answer (through the
// lookup rows the migration wrote), nothing is lost, and a key the previous release issues after the
// migration, while it still runs beside the new one, authenticates too.
import { randomUUID } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate } from "../../scripts/lib/migrate";
import { authenticate } from "../api-key-factories";
import { insertLegacyKey, legacySecret } from "../legacy-secrets";

/** The last migration before routed secrets. */
const BEFORE = "20261201000001_foreign_keys_validate";

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
const organizationId = randomUUID();
const userId = randomUUID();
const active = legacySecret();
const expired = legacySecret();
const revoked = legacySecret();
const lastUsedAt = new Date("2026-11-20T10:00:00.000Z");
let activeId = "";
let migrationsBefore = "";

async function migrationsUpTo(last: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "migrations-before-0048-"));
  for (const name of await readdir(MIGRATIONS_DIR)) {
    if (name <= last || !/^\d{14}_/.test(name)) await cp(join(MIGRATIONS_DIR, name), join(dir, name), { recursive: true });
  }
  return dir;
}

beforeAll(async () => {
  await client.connect();
  // Back to an empty database (the job queue's schema stays: it is not ours to migrate here).
  await client.query("DROP SCHEMA public CASCADE");
  await client.query("CREATE SCHEMA public");
  migrationsBefore = await migrationsUpTo(BEFORE);
  const applied = await migrate(process.env.DATABASE_URL!, migrationsBefore);
  expect(applied.at(-1)).toBe(BEFORE);

  await client.query("INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, 'Old', 'x')", [userId, `${userId}@example.test`]);
  await client.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Old Org', $2)", [
    organizationId,
    `old-${userId.slice(0, 8)}`,
  ]);
  activeId = await insertLegacyKey(client, { organizationId, secret: active, name: "active", scopes: ["audit:view", "member:read"] });
  await client.query("UPDATE api_keys SET last_used_at = $2 WHERE id = $1", [activeId, lastUsedAt]);
  await insertLegacyKey(client, { organizationId, secret: expired, name: "expired", expiresAt: new Date(Date.now() - 60_000) });
  await insertLegacyKey(client, { organizationId, secret: revoked, name: "revoked", revokedAt: new Date() });
  for (let i = 0; i < 3; i++) {
    await client.query(
      `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
       VALUES (gen_random_uuid(), $1, 'api_key.issued', 'user', $2, 'api_key', $3, '{}', 'x')`,
      [organizationId, userId, activeId],
    );
  }

  const rest = await migrate(process.env.DATABASE_URL!);
  expect(rest).toContain("20261202000000_api_key_legacy_secrets");
  expect(rest).toContain("20261202000003_api_keys_secret_hash_not_unique");
});

afterAll(async () => {
  await client.end();
  if (migrationsBefore) await rm(migrationsBefore, { recursive: true, force: true });
});

describe("migrating a database with keys of the older format in place", () => {
  it("gave every existing key its lookup row", async () => {
    const { rows } = await client.query(
      `SELECT k.name FROM api_keys k JOIN api_key_legacy_secrets l ON l.secret_hash = k.secret_hash AND l.organization_id = k.organization_id
        WHERE k.organization_id = $1 ORDER BY k.name`,
      [organizationId],
    );
    expect(rows.map((row) => row.name)).toEqual(["active", "expired", "revoked"]);
  });

  it("keeps the old secrets' answers: the active one authenticates, expired and revoked get the one 401", async () => {
    const answer = await authenticate(active.secret, ["member:read"]);
    expect(answer).toMatchObject({ status: 200, json: { keyId: activeId, organizationId, scopes: ["audit:view", "member:read"] } });
    const unknown = await authenticate(legacySecret().secret);
    expect(unknown.status).toBe(401);
    for (const secret of [expired, revoked]) expect((await authenticate(secret.secret)).text).toBe(unknown.text);
  });

  it("keeps the keys and the history as they were", async () => {
    const { rows } = await client.query<{ name: string; prefix: string; last_used_at: Date | null }>(
      "SELECT name, prefix, last_used_at FROM api_keys WHERE organization_id = $1 ORDER BY name",
      [organizationId],
    );
    expect(rows.map((row) => [row.name, row.prefix])).toEqual([
      ["active", active.prefix],
      ["expired", expired.prefix],
      ["revoked", revoked.prefix],
    ]);
    // Authenticated once above: last used moved on from the value it had.
    expect(rows[0]!.last_used_at!.getTime()).toBeGreaterThan(lastUsedAt.getTime());
    const events = await client.query("SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1", [organizationId]);
    expect(events.rows[0].n).toBe(3);
  });

  it("leaves the hash unique per organization only, with a plain index for the transition", async () => {
    const { rows } = await client.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'api_keys' AND indexdef LIKE '%secret_hash%' ORDER BY indexname",
    );
    expect(rows.map((row) => [row.indexname, row.indexdef.startsWith("CREATE UNIQUE")])).toEqual([
      ["api_keys_organization_id_secret_hash_key", true],
      ["api_keys_secret_hash_idx", false],
    ]);
  });

  it("lets a key the previous release issues afterwards (no lookup row) authenticate", async () => {
    const late = legacySecret();
    const id = await insertLegacyKey(client, { organizationId, secret: late, name: "issued during the upgrade" });
    expect((await client.query("SELECT 1 FROM api_key_legacy_secrets WHERE secret_hash = $1", [late.hash])).rowCount).toBe(0);
    expect(await authenticate(late.secret)).toMatchObject({ status: 200, json: { keyId: id, organizationId } });
  });
});

// A database the previous release made and used, upgraded in place: migrated up to the last
// migration before the Citus-ready schema (issue 31), filled the way that release wrote (secrets
// without a routing part, events whose rollups its triggers kept, an invitation link already
// mailed), then migrated to the end. The app then serves it: old secrets still authenticate, the
// history reads as it was, the mailed link still opens, the slug is still taken.
import { randomBytes, randomUUID } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { afterAll, describe, expect, inject, it } from "vitest";
import { MIGRATIONS_DIR, migrate, readMigrations } from "../../scripts/lib/migrate";
import { legacySecret } from "../legacy-secrets";
import { dropDatabase, withDatabase } from "../setup/database";

/** The first migration of the Citus-ready schema: everything before it is the previous release's. */
const FIRST_NEW_MIGRATION = "20261202000000";

const sha256 = async (text: string) => Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));

const adminUrl = inject("databaseAdminUrl");
const databaseName = `keyledger_upgrade_${process.pid}_${randomUUID().slice(0, 8)}`;
const url = withDatabase(adminUrl, databaseName);

const seeded = {
  ownerId: randomUUID(),
  inviteeEmail: `invitee-${randomUUID()}@example.test`,
  organizationId: randomUUID(),
  slug: `upgraded-${randomUUID().slice(0, 8)}`,
  liveSecret: legacySecret().secret,
  revokedSecret: legacySecret().secret,
  liveKeyId: randomUUID(),
  invitationToken: randomBytes(32).toString("base64url"),
  events: [] as string[],
};

async function previousReleaseDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${databaseName}"`).finally(() => admin.end());
  const before = await mkdtemp(join(tmpdir(), "keyledger-previous-migrations-"));
  try {
    for (const migration of await readMigrations()) {
      if (migration.name >= FIRST_NEW_MIGRATION) break;
      await cp(join(MIGRATIONS_DIR, migration.name), join(before, migration.name), { recursive: true });
    }
    await migrate(url, before);
  } finally {
    await rm(before, { recursive: true, force: true });
  }
}

/** What the previous release wrote, in its own SQL shape (ids alone, secrets without routing). */
async function fillAsThePreviousReleaseDid(): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { ownerId, organizationId } = seeded;
    const inviteeId = randomUUID();
    await client.query(
      `INSERT INTO users (id, email, name, password_hash, email_verified_at)
       VALUES ($1, $2, 'Upgrade Owner', 'not-a-password', now()), ($3, $4, 'Upgrade Invitee', 'not-a-password', now())`,
      [ownerId, `owner-${randomUUID()}@example.test`, inviteeId, seeded.inviteeEmail],
    );
    await client.query("INSERT INTO organizations (id, name, slug, plan_id) VALUES ($1, 'Upgraded', $2, 'enterprise')", [
      organizationId,
      seeded.slug,
    ]);
    await client.query("INSERT INTO memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, 'owner')", [
      randomUUID(),
      organizationId,
      ownerId,
    ]);
    const revokedKeyId = randomUUID();
    await client.query(
      `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id, revoked_at)
       VALUES ($1, $2, 'live', ARRAY['organization:read'], $3, $4, $5, NULL), ($6, $2, 'gone', ARRAY['organization:read'], $7, $8, $5, now())`,
      [
        seeded.liveKeyId,
        organizationId,
        await sha256(seeded.liveSecret),
        seeded.liveSecret.slice(0, 11),
        ownerId,
        revokedKeyId,
        await sha256(seeded.revokedSecret),
        seeded.revokedSecret.slice(0, 11),
      ],
    );
    for (const [i, [action, target, details]] of (
      [
        ["api_key.issued", seeded.liveKeyId, { name: "live", scopes: ["organization:read"], expiresAt: null }],
        ["api_key.issued", revokedKeyId, { name: "gone", scopes: ["organization:read"], expiresAt: null }],
        ["api_key.revoked", revokedKeyId, { name: "gone" }],
      ] as const
    ).entries()) {
      const id = uuidv7({ msecs: Date.now() - (3 - i) * 60_000 });
      seeded.events.push(id);
      await client.query(
        `INSERT INTO audit_events (id, organization_id, created_at, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
         VALUES ($1, $2, now() - make_interval(mins => $3), $4, 'user', $5, 'api_key', $6, $7, $8)`,
        [id, organizationId, 3 - i, action, ownerId, target, JSON.stringify(details), `previous-release-${i}`],
      );
    }
    await client.query(
      `INSERT INTO invitations (id, organization_id, email, role, status, invited_by_id, expires_at, token_hash, last_sent_at)
       VALUES ($1, $2, $3, 'member', 'pending', $4, now() + interval '6 days', $5, now())`,
      [randomUUID(), organizationId, seeded.inviteeEmail, ownerId, await sha256(seeded.invitationToken)],
    );
  } finally {
    await client.end();
  }
}

await previousReleaseDatabase();
await fillAsThePreviousReleaseDid();
await migrate(url);
// The app reads its settings at first use: from here on it serves the upgraded database.
process.env.DATABASE_URL = url;

const { authenticate } = await import("../api-key-factories");
const { call } = await import("../rpc");
const { signedIn } = await import("../factories");
const { prisma, disconnectDb } = await import("~/db.server");

afterAll(async () => {
  await disconnectDb();
  await dropDatabase(adminUrl, databaseName);
});

describe("upgrading a database of the previous release in place", () => {
  it("still authenticates the secrets it issued, and still refuses the revoked one identically", async () => {
    const live = await authenticate(seeded.liveSecret, ["organization:read"]);
    expect(live.status).toBe(200);
    expect(live.json).toMatchObject({ keyId: seeded.liveKeyId, organizationId: seeded.organizationId });
    const revoked = await authenticate(seeded.revokedSecret, ["organization:read"]);
    const unknown = await authenticate(legacySecret().secret, ["organization:read"]);
    expect(revoked.status).toBe(401);
    expect(revoked.json).toEqual(unknown.json);
  });

  it("keeps the history: the same events in the same order, and the rollups that count them", async () => {
    const { token } = await signedIn(seeded.ownerId, seeded.organizationId);
    const list = await call("auditLog/list", token, { organizationId: seeded.organizationId });
    expect(list.status).toBe(200);
    const events = (list.json.events as { id: string }[]).map((event) => event.id);
    expect(events).toEqual([...seeded.events].reverse());
    const actors = await prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_event_actors WHERE organization_id = ${seeded.organizationId}::uuid`;
    expect(actors[0]!.n).toBe(1);
    const days = await prisma.$queryRaw<{ n: number }[]>`
      SELECT coalesce(sum(events), 0)::int AS n FROM audit_event_days WHERE organization_id = ${seeded.organizationId}::uuid`;
    expect(days[0]!.n).toBe(3);
  });

  it("opens the invitation link mailed before the upgrade", async () => {
    const invitee = await prisma.user.findUniqueOrThrow({ where: { email: seeded.inviteeEmail }, select: { id: true } });
    const { token } = await signedIn(invitee.id);
    const accepted = await call("organization/acceptInvitation", token, { token: seeded.invitationToken });
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ organizationId: seeded.organizationId, role: "member" });
  });

  it("keeps the slug taken", async () => {
    const { token } = await signedIn(seeded.ownerId, seeded.organizationId);
    const clash = await call("organization/create", token, { name: "Another", slug: seeded.slug });
    expect(clash.status).toBe(409);
  });
});

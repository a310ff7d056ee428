// The migrations of decision 0050 convert a database in place: a database migrated to the step
// before them and filled the old way (ids as the only keys, slugs and tokens unique on the tenant
// tables) is migrated to the end; every row is still there, the lookups hold exactly the values
// the rows had, and the app finds them through the lookups.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { randomBytes, randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { linkTokenDigest, newLinkToken } from "~/lib/link-token";
import { MIGRATIONS_DIR, migrate } from "../../scripts/lib/migrate";
import { dropDatabase, withDatabase } from "../setup/database";
import { failure } from "../failure";

/** The first migration of decision 0050: everything before it is the "old" schema. */
const FIRST_OF_THESE = "20261204000000";

const adminUrl = inject("databaseAdminUrl");
const database = `keyledger_inplace_${process.pid}_${randomUUID().slice(0, 8)}`;
const url = withDatabase(adminUrl, database);

async function run<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A copy of the migrations that stops before this change's first one. */
async function migrationsBeforeThese(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "migrations-before-0050-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  for (const name of await readdir(dir)) {
    if (name >= FIRST_OF_THESE && /^\d{14}_/.test(name)) await rm(join(dir, name), { recursive: true });
  }
  return dir;
}

const ids = {
  owner: randomUUID(),
  acme: randomUUID(),
  globex: randomUUID(),
  membership: randomUUID(),
  key: randomUUID(),
  event: randomUUID(),
  invitation: randomUUID(),
  forgotten: randomUUID(),
  logo: randomUUID(),
};
const token = newLinkToken();
const secretHash = randomBytes(32);

/** Rows as the release before these migrations wrote them. */
async function seedTheOldWay() {
  await run(
    `INSERT INTO users (id, email, name, password_hash, email_verified_at) VALUES ($1, 'old@example.test', 'Old Owner', 'x', now())`,
    [ids.owner],
  );
  await run(`INSERT INTO organizations (id, name, slug, plan_id) VALUES ($1, 'Acme', 'acme', 'team'), ($2, 'Globex', 'globex', 'free')`, [
    ids.acme,
    ids.globex,
  ]);
  await run(`INSERT INTO memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, 'owner')`, [
    ids.membership,
    ids.acme,
    ids.owner,
  ]);
  await run(
    `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id)
     VALUES ($1, $2, 'Deploy', '{audit:view}', $3, 'sk_old', $4)`,
    [ids.key, ids.acme, secretHash, ids.owner],
  );
  await run(
    `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
     VALUES ($1, $2, 'api_key.issued', 'user', $3, 'api_key', $4, '{"name":"Deploy"}', 'old-hash')`,
    [ids.event, ids.acme, ids.owner, ids.key],
  );
  await run(
    `INSERT INTO invitations (id, organization_id, email, role, status, invited_by_id, expires_at, token_hash, last_sent_at)
     VALUES ($1, $2, 'new@example.test', 'member', 'pending', $3, now() + interval '7 days', $4, now()),
            ($5, $2, 'gone@example.test', 'member', 'expired', $3, now() - interval '60 days', NULL, now() - interval '67 days')`,
    [ids.invitation, ids.acme, ids.owner, linkTokenDigest(token), ids.forgotten],
  );
  await run(
    `INSERT INTO organization_logos (id, organization_id, content_type, bytes, byte_size, uploaded_by_id) VALUES ($1, $2, 'image/png', '\\x89504e47', 4, $3)`,
    [ids.logo, ids.acme, ids.owner],
  );
  await run(`UPDATE organizations SET logo_id = $1 WHERE id = $2`, [ids.logo, ids.acme]);
  await run(
    `INSERT INTO billing_provider_events (provider, event_id, organization_id, type, outcome) VALUES ('dev', 'evt_old_1', $1, 'payment_failed', 'applied')`,
    [ids.acme],
  );
}

const COUNTED = [
  "organizations",
  "memberships",
  "api_keys",
  "audit_events",
  "invitations",
  "organization_logos",
  "billing_provider_events",
];
const rowCounts = async () =>
  Object.fromEntries(await Promise.all(COUNTED.map(async (table) => [table, (await run(`SELECT * FROM ${table}`)).length])));

// Before anything reads the configuration: the app below works on the database migrated in place.
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${database}"`);
await admin.end();
await migrate(url, await migrationsBeforeThese());
await seedTheOldWay();
const countsBefore = await rowCounts();
const applied = await migrate(url);
process.env.DATABASE_URL = url;

const { disconnectDb, prisma } = await import("~/db.server");
const acceptance = await import("~/organizations/invitation-acceptance.server");
const { OPERATOR_ACTOR, setOrganizationPlan } = await import("~/billing/plan-override.server");
const organizations = await import("~/organizations/organizations.server");
const { signedIn } = await import("../factories");

afterAll(async () => {
  await disconnectDb();
  await dropDatabase(adminUrl, database);
});

describe("the migrations to (organization_id, id) keys and lookups, on a database of the release before", () => {
  it("applied this change's migrations, and kept every row", async () => {
    expect(applied.filter((name) => name >= FIRST_OF_THESE).length).toBeGreaterThanOrEqual(8);
    expect(await rowCounts()).toEqual(countsBefore);
    expect(await run(`SELECT id, organization_id FROM api_keys WHERE organization_id = $1 AND id = $2`, [ids.acme, ids.key])).toHaveLength(
      1,
    );
    expect((await run<{ logo_id: string }>(`SELECT logo_id FROM organizations WHERE id = $1`, [ids.acme]))[0]?.logo_id).toBe(ids.logo);
  });

  it("filled the lookups with exactly the values the rows had", async () => {
    expect(await run(`SELECT slug, organization_id FROM organization_slugs ORDER BY slug`)).toEqual([
      { slug: "acme", organization_id: ids.acme },
      { slug: "globex", organization_id: ids.globex },
    ]);
    // The invitation whose link was already forgotten has no row; the live link has its own.
    expect(
      await run(`SELECT organization_id, invitation_id FROM invitation_tokens WHERE token_hash = $1`, [linkTokenDigest(token)]),
    ).toEqual([{ organization_id: ids.acme, invitation_id: ids.invitation }]);
    expect(await run(`SELECT count(*)::int AS n FROM invitation_tokens`)).toEqual([{ n: 1 }]);
    expect(await run(`SELECT provider, event_id, organization_id FROM billing_provider_event_ids`)).toEqual([
      { provider: "dev", event_id: "evt_old_1", organization_id: ids.acme },
    ]);
  });

  it("lets the app find the old rows through the lookups: a mailed link, a slug, a taken slug", async () => {
    expect(await acceptance.previewInvitation(token)).toMatchObject({
      state: "pending",
      organizationName: "Acme",
      email: "new@example.test",
    });
    expect((await setOrganizationPlan("globex", "team", { actor: OPERATOR_ACTOR })).organization.id).toBe(ids.globex);
    const { auth } = await signedIn(ids.owner);
    expect(await failure(organizations.createOrganization(auth, { name: "Another Acme", slug: "acme" }))).toMatchObject({
      code: "CONFLICT",
      messageKey: "slugTaken",
    });
    // The old rows answer by their new keys.
    expect(await prisma.auditEvent.findUnique({ where: { organizationId_id: { organizationId: ids.acme, id: ids.event } } })).toMatchObject(
      {
        action: "api_key.issued",
      },
    );
    expect(
      await prisma.organizationLogo.findUnique({ where: { organizationId_id: { organizationId: ids.acme, id: ids.logo } } }),
    ).not.toBeNull();
  });
});

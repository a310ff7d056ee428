// Demo data of docs/contract.md. `npm run db:seed` (scripts/db-seed.ts) loads it into DATABASE_URL and refuses to run twice;
// `npm start` loads it on the first start of the embedded database.
//
// The accounts are written here; everything that happens in the organizations (founding, people,
// plans, keys, exports: about 90 days, a few thousand audit events) is told by prisma/demo/ through
// the domain functions, then moved back in time by prisma/demo/backdate.ts
// (docs/decisions/0033-demo-data-and-safe-start.md).
import { randomUUID } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import pg from "pg";
import { hashPassword } from "../app/auth/password.server.ts";
import { env } from "../app/env.server.ts";
import { DEMO_EXTRA_USERS, DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_STAFF_TOTP_SECRET, DEMO_USERS } from "./demo/accounts.ts";
import { backdate } from "./demo/backdate.ts";
import { LANES, runLane, type LaneName } from "./demo/lanes.ts";
import { Timeline } from "./demo/timeline.ts";

export { DEMO_EXTRA_USERS, DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_STAFF_TOTP_SECRET, DEMO_USERS };

const SEED_LOCK = "SELECT pg_advisory_lock(hashtext('keyledger-demo-seed'))";
const SEED_UNLOCK = "SELECT pg_advisory_unlock(hashtext('keyledger-demo-seed'))";
const ALL_USERS = [...DEMO_USERS, ...DEMO_EXTRA_USERS];

/**
 * Loads the demo data; returns false (and changes nothing) when it is already there. The domain
 * functions it runs use this process's database (DATABASE_URL), which must be `databaseUrl`.
 */
export async function seedDemoData(
  databaseUrl: string,
  now = new Date(),
  {
    repairInterrupted = false,
    signal,
  }: {
    /** Remove the leftovers of a run that was killed (the embedded start). */ repairInterrupted?: boolean;
    /** Stops the story after each lane's current step and removes what was written (SIGTERM
     * during `npm start`, server/shutdown.ts); the call then rejects with the signal's reason. */
    signal?: AbortSignal;
  } = {},
): Promise<boolean> {
  if (env().DATABASE_URL !== databaseUrl) throw new Error("seedDemoData: databaseUrl must be this process's DATABASE_URL.");
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Serialize concurrent seeders for the whole run; the check below then sees the winner's rows.
    await client.query(SEED_LOCK);
    const existing = await client.query(
      "SELECT 1 FROM organization_slugs WHERE slug = ANY($1) UNION ALL SELECT 1 FROM users WHERE email = ANY($2)",
      [DEMO_ORGANIZATIONS.map((o) => o.slug), ALL_USERS.map((u) => u.email)],
    );
    if (existing.rowCount && !(repairInterrupted && (await removeInterruptedRun(client)))) return false;
    const userIds = await insertAccounts(client);
    let failed = false;
    try {
      // The organizations' stories at the same time (prisma/demo/lanes.ts): one waits on the
      // database while the other runs.
      const outcomes = await Promise.allSettled(
        (Object.keys(LANES) as LaneName[]).map((name) =>
          runLane(name, userIds, now, () => failed || Boolean(signal?.aborted)).catch((error: unknown) => {
            failed = true; // the other lanes stop after their current step
            throw error;
          }),
        ),
      );
      signal?.throwIfAborted();
      const lanes = outcomes.map((outcome) => {
        if (outcome.status === "rejected") throw outcome.reason;
        return outcome.value;
      });
      const timeline = new Timeline(now);
      await backdate(client, {
        lanes,
        userIds: [...userIds.values()],
        keys: lanes.flatMap((lane) => lane.keys),
        start: timeline.day(90, 8, 0),
      });
      await checkEndState(
        client,
        lanes.map((lane) => lane.organizationId),
      );
    } catch (error) {
      // Nothing half-told stays behind: every organization the new accounts are in was made by
      // this run; they take their keys, events and memberships with them; then the accounts go.
      const users = [...userIds.values()];
      await client
        .query(deleteOrganizations("id IN (SELECT organization_id FROM memberships WHERE user_id = ANY($1::uuid[]))"), [users])
        .catch(() => {});
      await client.query("DELETE FROM users WHERE id = ANY($1::uuid[])", [users]).catch(() => {});
      throw error;
    }
    return true;
  } finally {
    await client.query(SEED_UNLOCK).catch(() => {});
    await client.end();
  }
}

/**
 * Deletes the organizations `which` selects (the cascade takes everything in them) and the lookup
 * rows that name them (decision 0050), in one statement.
 */
function deleteOrganizations(which: string): string {
  return `WITH gone AS (DELETE FROM organizations WHERE ${which} RETURNING id),
    slugs AS (DELETE FROM organization_slugs WHERE organization_id IN (SELECT id FROM gone)),
    tokens AS (DELETE FROM invitation_tokens WHERE organization_id IN (SELECT id FROM gone)),
    secrets AS (DELETE FROM api_key_legacy_secrets WHERE organization_id IN (SELECT id FROM gone))
    DELETE FROM billing_provider_event_ids WHERE organization_id IN (SELECT id FROM gone)`;
}

/**
 * A run killed while telling the story (the process ended: no catch ran) leaves its accounts,
 * committed first, and part of the story, never moved back in time: the last step, backdating, is
 * one transaction, so a completed run is exactly one whose Acme history reaches back weeks. Such
 * leftovers are removed (organizations of the demo accounts, then the accounts) so the start can
 * load the demo again; returns whether it did. Only the embedded start asks: on a database of
 * its own nobody else can have made these addresses.
 */
async function removeInterruptedRun(client: pg.Client): Promise<boolean> {
  const told = await client.query(
    `SELECT 1 FROM audit_events e JOIN organization_slugs o ON o.organization_id = e.organization_id
     WHERE o.slug = $1 AND e.created_at < now() - interval '30 days' LIMIT 1`,
    [DEMO_ORGANIZATIONS[0].slug],
  );
  if (told.rowCount) return false;
  const emails = ALL_USERS.map((u) => u.email);
  await client.query("BEGIN");
  try {
    await client.query(
      deleteOrganizations(`id IN (SELECT organization_id FROM organization_slugs WHERE slug = ANY($1)) OR id IN
         (SELECT m.organization_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ANY($2))`),
      [DEMO_ORGANIZATIONS.map((o) => o.slug), emails],
    );
    await client.query("DELETE FROM users WHERE email = ANY($1)", [emails]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
  return true;
}

/** The accounts, committed first: the story's sessions and checks read them on other connections. */
async function insertAccounts(client: pg.Client): Promise<Map<string, string>> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const ids = new Map<string, string>();
  await client.query("BEGIN");
  try {
    for (const user of ALL_USERS) {
      const id = randomUUID();
      ids.set(user.email, id);
      const platformAdmin = "platformAdmin" in user && user.platformAdmin;
      // Platform admins need two-factor (docs/decisions/0026-support-console.md): the demo one is
      // enrolled with the published demo secret.
      const totpKey = platformAdmin ? Buffer.from(decodeBase32IgnorePadding(DEMO_STAFF_TOTP_SECRET)) : null;
      await client.query(
        `INSERT INTO users (id, email, name, password_hash, is_platform_admin, totp_key, two_factor_enabled_at, email_verified_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::bytea IS NULL THEN NULL ELSE now() END, now())`,
        [id, user.email, user.name, passwordHash, platformAdmin, totpKey],
      );
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
  return ids;
}

/** The story must leave the organizations and memberships the contract lists. */
async function checkEndState(client: pg.Client, organizationIds: string[]) {
  const { rows } = await client.query<{ email: string; slug: string; role: string }>(
    `SELECT u.email, o.slug, m.role::text AS role FROM memberships m JOIN users u ON u.id = m.user_id
     JOIN organizations o ON o.id = m.organization_id WHERE o.id = ANY($1::uuid[])`,
    [organizationIds],
  );
  rows.sort((a, b) => a.email.localeCompare(b.email));
  const expected = ALL_USERS.filter((u) => u.org !== null)
    .map((u) => ({ email: u.email, slug: u.org, role: u.role }))
    .sort((a, b) => a.email.localeCompare(b.email));
  const orgs = await client.query<{ slug: string; name: string; plan_id: string }>(
    "SELECT slug, name, plan_id FROM organizations WHERE id = ANY($1::uuid[]) ORDER BY slug",
    [organizationIds],
  );
  const expectedOrgs = DEMO_ORGANIZATIONS.map((o) => ({ slug: o.slug, name: o.name, plan_id: o.planId }));
  if (JSON.stringify(rows) !== JSON.stringify(expected) || JSON.stringify(orgs.rows) !== JSON.stringify(expectedOrgs)) {
    throw new Error(`the demo story ended elsewhere than docs/contract.md says: ${JSON.stringify({ rows, orgs: orgs.rows })}`);
  }
}

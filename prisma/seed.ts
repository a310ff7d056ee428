// Demo data of docs/contract.md. `npm run db:seed` loads it into DATABASE_URL and refuses to run twice;
// `npm start` loads it on the first start of the embedded database.
import { randomUUID } from "node:crypto";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import pg from "pg";
import { hashPassword } from "../app/auth/password.server.ts";

export const DEMO_PASSWORD = "correct-horse-battery-staple";

/** The demo platform admin's TOTP secret, published in docs/contract.md: demo data only, never a real account's. */
export const DEMO_STAFF_TOTP_SECRET = "KEYLEDGERSTAFFDEMOTOTPSECRETKEYA";

export const DEMO_ORGANIZATIONS = [
  { slug: "acme", name: "Acme", planId: "enterprise" },
  { slug: "globex", name: "Globex", planId: "team" },
] as const;

export const DEMO_USERS = [
  { email: "owner@acme.test", name: "Olivia Owner", org: "acme", role: "owner", platformAdmin: false },
  { email: "admin@acme.test", name: "Adam Admin", org: "acme", role: "admin", platformAdmin: false },
  { email: "member@acme.test", name: "Mia Member", org: "acme", role: "member", platformAdmin: false },
  { email: "owner@globex.test", name: "Gustav Globex", org: "globex", role: "owner", platformAdmin: false },
  { email: "staff@platform.test", name: "Sam Staff", org: null, role: null, platformAdmin: true },
] as const;

/** Loads the demo data; returns false (and changes nothing) when it is already there. */
export async function seedDemoData(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    // Serialize concurrent seeders; the check below then sees the winner's rows.
    await client.query("SELECT pg_advisory_xact_lock(hashtext('keyledger-demo-seed'))");
    const existing = await client.query("SELECT 1 FROM organizations WHERE slug = $1", ["acme"]);
    if (existing.rowCount) {
      await client.query("ROLLBACK");
      return false;
    }
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const orgIds = new Map<string, string>();
    for (const org of DEMO_ORGANIZATIONS) {
      const id = randomUUID();
      orgIds.set(org.slug, id);
      await client.query("INSERT INTO organizations (id, name, slug, plan_id) VALUES ($1, $2, $3, $4)", [
        id,
        org.name,
        org.slug,
        org.planId,
      ]);
    }
    for (const user of DEMO_USERS) {
      const id = randomUUID();
      // Platform admins need two-factor (docs/decisions/0026-support-console.md): the demo one is
      // enrolled with the published demo secret.
      const totpKey = user.platformAdmin ? Buffer.from(decodeBase32IgnorePadding(DEMO_STAFF_TOTP_SECRET)) : null;
      await client.query(
        `INSERT INTO users (id, email, name, password_hash, is_platform_admin, totp_key, two_factor_enabled_at, email_verified_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::bytea IS NULL THEN NULL ELSE now() END, now())`,
        [id, user.email, user.name, passwordHash, user.platformAdmin, totpKey],
      );
      if (user.org) {
        await client.query("INSERT INTO memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)", [
          randomUUID(),
          orgIds.get(user.org),
          id,
          user.role,
        ]);
      }
    }
    await client.query("COMMIT");
    return true;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

const isMain = process.argv[1] && import.meta.filename === (await import("node:fs")).realpathSync(process.argv[1]);
if (isMain) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error("DATABASE_URL is not set.");
    process.exit(1);
  }
  const seeded = await seedDemoData(url);
  if (!seeded) {
    console.error("The demo data is already loaded; refusing to load it twice.");
    process.exit(1);
  }
  console.log("Loaded the demo data.");
}

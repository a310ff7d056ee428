// Makes an existing account a platform admin: the way to the first platform admin of a real
// deployment (there is no sign-up for it, by design). Used by `npm run admin:grant -- EMAIL`.
import pg from "pg";

export type GrantResult = "granted" | "already" | "unknown";

export async function grantPlatformAdmin(databaseUrl: string, email: string): Promise<GrantResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ is_platform_admin: boolean }>(
      "SELECT is_platform_admin FROM users WHERE email = $1 AND deleted_at IS NULL",
      [email.trim().toLowerCase()],
    );
    if (!rows[0]) return "unknown";
    if (rows[0].is_platform_admin) return "already";
    await client.query("UPDATE users SET is_platform_admin = true WHERE email = $1", [email.trim().toLowerCase()]);
    return "granted";
  } finally {
    await client.end();
  }
}

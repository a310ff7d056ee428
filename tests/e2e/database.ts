// Direct access to the e2e server's database, for the few things the UI deliberately cannot do:
// making an account a platform admin (there is no sign-up for it), ageing a session (the
// support console's 30-minute freshness), and forgetting the sign-up limit (every browser test
// signs up from 127.0.0.1, and the suite makes more accounts than one address may in an hour). tests/e2e/start-server.ts runs the embedded PostgreSQL
// of scripts/start.ts on E2E_POSTGRES_PORT (54339 unless set) with database `keyledger`, user and
// password `postgres` (scripts/lib/embedded-postgres.ts).
import pg from "pg";

export function e2eDatabaseUrl(): string {
  const port = process.env.E2E_POSTGRES_PORT ?? "54339";
  return `postgresql://postgres:postgres@127.0.0.1:${port}/keyledger`;
}

async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Makes the account a platform admin (what `npm run admin:grant` does). Throws when the e-mail is
 * unknown: then the test talks to another server's database (check E2E_POSTGRES_PORT). */
export async function grantPlatformAdmin(email: string): Promise<void> {
  const result = await withClient((client) => client.query("UPDATE users SET is_platform_admin = true WHERE email = $1", [email]));
  if (result.rowCount !== 1) throw new Error(`No user ${email} in ${e2eDatabaseUrl()}`);
}

/** Moves the last full sign-in of every session of the account `minutes` into the past. */
export async function ageSessions(email: string, minutes: number): Promise<void> {
  const result = await withClient((client) =>
    client.query(
      `UPDATE sessions SET authenticated_at = now() - make_interval(mins => $2::int)
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [email, minutes],
    ),
  );
  if (!result.rowCount) throw new Error(`No session of ${email} in ${e2eDatabaseUrl()}`);
}

/** Forgets the sign-ups counted per client address (policy `auth.signup.address`). */
export async function forgetSignUpLimit(): Promise<void> {
  await withClient((client) => client.query("DELETE FROM rate_limits WHERE key LIKE 'auth.signup.address:%'"));
}

/** Marks the account's address as not proven, as an account signed in before issue 28 was (a
 * password no longer signs such an account in: docs/decisions/0031-sign-up-policy-and-verified-addresses.md). */
export async function forgetVerification(email: string): Promise<void> {
  const result = await withClient((client) => client.query("UPDATE users SET email_verified_at = NULL WHERE email = $1", [email]));
  if (result.rowCount !== 1) throw new Error(`No user ${email} in ${e2eDatabaseUrl()}`);
}

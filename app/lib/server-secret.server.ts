// Keys the server makes for itself, kept in PostgreSQL so that every instance shares them without
// configuration (server_secrets). The first instance that needs one makes it; a race between two
// is settled by the primary key, and both then read the winner's. Read once per process.
import { randomBytes } from "node:crypto";
import { pool } from "~/db.server";

export type ServerSecretName = "audit-cursor";

const cache = new Map<ServerSecretName, Promise<Buffer>>();

async function load(name: ServerSecretName): Promise<Buffer> {
  const { rows } = await pool().query<{ secret: Buffer }>(
    `WITH made AS (
       INSERT INTO server_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING secret
     )
     SELECT secret FROM made UNION ALL SELECT secret FROM server_secrets WHERE name = $1 LIMIT 1`,
    [name, randomBytes(32)],
  );
  const secret = rows[0]?.secret;
  if (secret) return secret;
  // Another instance made it while this statement ran: its row was not yet visible to our
  // snapshot. It is now.
  const again = await pool().query<{ secret: Buffer }>("SELECT secret FROM server_secrets WHERE name = $1", [name]);
  if (!again.rows[0]) throw new Error(`server secret ${name} could not be read`);
  return again.rows[0].secret;
}

/** The named secret (32+ random bytes). A failed read is retried by the next caller. */
export function serverSecret(name: ServerSecretName): Promise<Buffer> {
  let found = cache.get(name);
  if (!found) {
    found = load(name);
    found.catch(() => cache.delete(name));
    cache.set(name, found);
  }
  return found;
}

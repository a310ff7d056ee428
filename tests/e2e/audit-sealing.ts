// Seals an organization's log in the e2e server's database with the tests' key, as the digest job
// would once its period closed (the browser tests cannot wait an interval), and tampers with it as
// the database owner.
import pg from "pg";
import { sealOrganization } from "../../app/audit-integrity/seal.server";
import { currentSigningKey } from "../../app/audit-integrity/signing-keys";
import { E2E_AUDIT_PRIVATE_KEY } from "./audit-signing-key";
import { e2eDatabaseUrl } from "./database";

async function withPool<T>(work: (db: pg.Pool) => Promise<T>): Promise<T> {
  const db = new pg.Pool({ connectionString: e2eDatabaseUrl(), max: 1 });
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

export function sealE2eOrganization(organizationId: string) {
  const key = currentSigningKey({ AUDIT_SIGNING_KEY: E2E_AUDIT_PRIVATE_KEY })!;
  return withPool((db) => sealOrganization(organizationId, key, { db }));
}

/** Changes one sealed event's details behind the app's back; its id. */
export function alterOneEvent(organizationId: string): Promise<string> {
  return withPool(async (db) => {
    const { rows } = await db.query<{ id: string }>(
      `UPDATE audit_events SET details = details || '{"tampered":true}'
       WHERE organization_id = $1 AND id = (SELECT id FROM audit_events WHERE organization_id = $1 ORDER BY created_at LIMIT 1)
       RETURNING id::text AS id`,
      [organizationId],
    );
    return rows[0]!.id;
  });
}

// apiKey.authenticate's hot path: one statement and one round trip in the usual case, no Prisma, no
// session (docs/decisions/0014-api-key-authenticate-hot-path.md). ./authenticate-sql.ts says what
// the two statements do and why the second runs only when the first found nothing to touch.
import { pool } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import type { ApiKeyScope } from "~/access/api-key-scopes";
import { AUTHENTICATE_READ_SQL, AUTHENTICATE_TOUCH_SQL } from "./authenticate-sql";
import { hashSecret } from "./secret.server";

export interface AuthenticatedKey {
  keyId: string;
  organizationId: string;
  scopes: ApiKeyScope[];
}

// Named statements are parsed and planned once per connection.
const TOUCH = { name: "api_key_authenticate_touch", text: AUTHENTICATE_TOUCH_SQL };
const READ = { name: "api_key_authenticate_read", text: AUTHENTICATE_READ_SQL };

/** The one answer for unknown, expired, revoked, malformed and missing keys. */
export function unauthorizedKey(): DomainError {
  return new DomainError("UNAUTHORIZED", "apiKey.unauthorized");
}

/**
 * `secret` must already have passed isWellFormedSecret (bearerSecret does that), so malformed
 * keys never reach the database.
 */
export async function authenticateKey(secret: string, requiredScopes: readonly ApiKeyScope[]): Promise<AuthenticatedKey> {
  const values = [hashSecret(secret), requiredScopes];
  const touched = await pool().query<KeyRow>({ ...TOUCH, values });
  const row = touched.rows[0] ?? (await pool().query<KeyRow & { allowed: boolean }>({ ...READ, values })).rows[0];
  if (!row) throw unauthorizedKey();
  if ("allowed" in row && !row.allowed) throw new DomainError("FORBIDDEN", "apiKey.missingScope");
  return { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes as ApiKeyScope[] };
}

interface KeyRow {
  id: string;
  organization_id: string;
  scopes: string[];
}

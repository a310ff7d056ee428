// apiKey.authenticate's hot path: one statement, one round trip, no Prisma, no session
// (docs/decisions/0014-api-key-authenticate-hot-path.md). The statement finds the key by the
// SHA-256 of the secret, refuses revoked and expired keys, updates last used when the requested
// scopes are held, and returns what the caller needs.
import { pool } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import type { ApiKeyScope } from "~/access/api-key-scopes";
import { AUTHENTICATE_SQL } from "./authenticate-sql";
import { hashSecret } from "./secret.server";

export interface AuthenticatedKey {
  keyId: string;
  organizationId: string;
  scopes: ApiKeyScope[];
}

// A named statement is parsed and planned once per connection.
const AUTHENTICATE = { name: "api_key_authenticate", text: AUTHENTICATE_SQL };

/** The one answer for unknown, expired, revoked, malformed and missing keys. */
export function unauthorizedKey(): DomainError {
  return new DomainError("UNAUTHORIZED", "apiKey.unauthorized");
}

/**
 * `secret` must already have passed isWellFormedSecret (bearerSecret does that), so malformed
 * keys never reach the database.
 */
export async function authenticateKey(secret: string, requiredScopes: readonly ApiKeyScope[]): Promise<AuthenticatedKey> {
  const result = await pool().query<{ id: string; organization_id: string; scopes: string[]; allowed: boolean }>({
    ...AUTHENTICATE,
    values: [hashSecret(secret), requiredScopes],
  });
  const row = result.rows[0];
  if (!row) throw unauthorizedKey();
  if (!row.allowed) throw new DomainError("FORBIDDEN", "apiKey.missingScope");
  return { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes as ApiKeyScope[] };
}

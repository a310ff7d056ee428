// apiKey.authenticate's hot path: one statement, one round trip, no Prisma, no session
// (docs/decisions/0014-api-key-authenticate-hot-path.md). The statement finds the key by its
// organization and the SHA-256 of the secret, refuses revoked and expired keys, updates last used
// when the requested scopes are held, and returns what the caller needs. A secret names its
// organization; one issued before secrets did is looked up first (docs/decisions/0048-routed-secrets.md).
import { pool } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import type { ApiKeyScope } from "~/access/api-key-scopes";
import { AUTHENTICATE_SQL, LEGACY_ORGANIZATION_SQL, UNROUTED_ORGANIZATION_SQL } from "./authenticate-sql";
import { hashSecret, type PresentedSecret } from "./secret.server";

export interface AuthenticatedKey {
  keyId: string;
  organizationId: string;
  scopes: ApiKeyScope[];
}

// Named statements are parsed and planned once per connection.
const AUTHENTICATE = { name: "api_key_authenticate", text: AUTHENTICATE_SQL };
const LEGACY_ORGANIZATION = { name: "api_key_legacy_organization", text: LEGACY_ORGANIZATION_SQL };
const UNROUTED_ORGANIZATION = { name: "api_key_unrouted_organization", text: UNROUTED_ORGANIZATION_SQL };

/** The one answer for unknown, expired, revoked, malformed and missing keys. */
export function unauthorizedKey(): DomainError {
  return new DomainError("UNAUTHORIZED", "apiKey.unauthorized");
}

/**
 * The organization of a secret of the older format: from the lookup table, else (a key the
 * previous release issued during a rolling upgrade, which wrote no lookup row) from the keys by
 * the hash alone; null when neither knows it, which is the 401.
 */
async function legacyOrganization(hash: Buffer): Promise<string | null> {
  type Row = { organization_id: string };
  const lookedUp = await pool().query<Row>({ ...LEGACY_ORGANIZATION, values: [hash] });
  if (lookedUp.rows[0]) return lookedUp.rows[0].organization_id;
  const unrouted = await pool().query<Row>({ ...UNROUTED_ORGANIZATION, values: [hash] });
  return unrouted.rows[0]?.organization_id ?? null;
}

/**
 * `presented` comes from parseSecret (bearerSecret does that), so malformed keys never reach the
 * database.
 */
export async function authenticateKey(presented: PresentedSecret, requiredScopes: readonly ApiKeyScope[]): Promise<AuthenticatedKey> {
  const hash = hashSecret(presented.secret);
  const organizationId = presented.organizationId ?? (await legacyOrganization(hash));
  if (!organizationId) throw unauthorizedKey();
  const result = await pool().query<{ id: string; organization_id: string; scopes: string[]; allowed: boolean }>({
    ...AUTHENTICATE,
    values: [hash, requiredScopes, organizationId],
  });
  const row = result.rows[0];
  if (!row) throw unauthorizedKey();
  if (!row.allowed) throw new DomainError("FORBIDDEN", "apiKey.missingScope");
  return { keyId: row.id, organizationId: row.organization_id, scopes: row.scopes as ApiKeyScope[] };
}

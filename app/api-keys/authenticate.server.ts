// apiKey.authenticate's hot path: no Prisma, no session, one statement per organization per turn of
// the event loop (docs/decisions/0014-api-key-authenticate-hot-path.md, 0066-authenticate-batched.md).
// The statement finds the keys by their organization and the SHA-256 of the secrets, leaves out
// revoked and expired keys, updates last used of each key a call holds the scopes for, and returns
// what the callers need. A secret names its organization; one issued before secrets did is looked
// up first (docs/decisions/0048-routed-secrets.md).
//
// Calls of one organization that arrive in the same turn share one statement: one round trip and
// one commit for all of them instead of one each. Nothing waits for a timer: the calls are sent once
// the turn's input has been read (setImmediate), a lone call with the one-key statement as before, a
// busy organization's calls together at a fraction of the cost each. Each call is still answered
// only after its key's last used is committed.
import { HOT_STATEMENT_LIMIT, pool } from "~/db.server";
import { DomainError } from "~/lib/domain-error";
import type { ApiKeyScope } from "~/access/api-key-scopes";
import { AUTHENTICATE_BATCH_SQL, AUTHENTICATE_SQL, LEGACY_ORGANIZATION_SQL, UNROUTED_ORGANIZATION_SQL } from "./authenticate-sql";
import { hashSecret, type PresentedSecret } from "./secret.server";

export interface AuthenticatedKey {
  keyId: string;
  organizationId: string;
  scopes: ApiKeyScope[];
}

// Named statements are parsed and planned once per connection. Each gives up after
// HOT_STATEMENT_LIMIT without an answer: a call is a 503, not a wait as long as a stall.
const AUTHENTICATE = { name: "api_key_authenticate", text: AUTHENTICATE_SQL, ...HOT_STATEMENT_LIMIT };
const AUTHENTICATE_BATCH = { name: "api_key_authenticate_batch", text: AUTHENTICATE_BATCH_SQL, ...HOT_STATEMENT_LIMIT };
const LEGACY_ORGANIZATION = { name: "api_key_legacy_organization", text: LEGACY_ORGANIZATION_SQL, ...HOT_STATEMENT_LIMIT };
const UNROUTED_ORGANIZATION = { name: "api_key_unrouted_organization", text: UNROUTED_ORGANIZATION_SQL, ...HOT_STATEMENT_LIMIT };

/** Calls per statement at most: a larger turn is split, and the parts run side by side on the pool. */
export const MAX_AUTHENTICATE_BATCH = 64;

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

/** One call waiting for its organization's next statement. */
interface WaitingCall {
  hash: Buffer;
  scopes: readonly ApiKeyScope[];
  resolve: (key: AuthenticatedKey) => void;
  reject: (error: unknown) => void;
}

type KeyRow = { secret_hash: Buffer; id: string; scopes: string[] };

/** The calls of this turn, by organization; sent together once the turn's input is read. */
let waiting = new Map<string, WaitingCall[]>();
let sendScheduled = false;

function holdsAll(held: readonly string[], required: readonly string[]): boolean {
  for (const scope of required) if (!held.includes(scope)) return false;
  return true;
}

/** Each call's answer from the statement's rows: no row the 401, a row without its scopes the 403. */
function answerCalls(organizationId: string, calls: readonly WaitingCall[], rows: readonly KeyRow[]): void {
  const byHash = new Map<string, KeyRow>();
  for (const row of rows) byHash.set(row.secret_hash.toString("latin1"), row);
  for (const call of calls) {
    const row = byHash.get(call.hash.toString("latin1"));
    if (!row) call.reject(unauthorizedKey());
    else if (!holdsAll(row.scopes, call.scopes)) call.reject(new DomainError("FORBIDDEN", "apiKey.missingScope"));
    else call.resolve({ keyId: row.id, organizationId, scopes: row.scopes as ApiKeyScope[] });
  }
}

/** The rows of the presented keys (unrevoked, unexpired), last used written where a call holds the scopes. */
async function presentedKeys(organizationId: string, calls: readonly WaitingCall[]): Promise<KeyRow[]> {
  if (calls.length === 1) {
    const [{ hash, scopes }] = calls as [WaitingCall];
    type Row = { id: string; scopes: string[] };
    const { rows } = await pool().query<Row>({ ...AUTHENTICATE, values: [hash, scopes, organizationId] });
    return rows.map((row) => ({ secret_hash: hash, id: row.id, scopes: row.scopes }));
  }
  const values = [organizationId, calls.map((call) => call.hash), calls.map((call) => call.scopes.join(","))];
  return (await pool().query<KeyRow>({ ...AUTHENTICATE_BATCH, values })).rows;
}

async function sendBatch(organizationId: string, calls: readonly WaitingCall[]): Promise<void> {
  let rows: KeyRow[];
  try {
    rows = await presentedKeys(organizationId, calls);
  } catch (error) {
    // Each call answers the failure as its own (an outage is every caller's 503).
    for (const call of calls) call.reject(error);
    return;
  }
  answerCalls(organizationId, calls, rows);
}

function sendWaiting(): void {
  const turn = waiting;
  waiting = new Map();
  sendScheduled = false;
  for (const [organizationId, calls] of turn) {
    for (let start = 0; start < calls.length; start += MAX_AUTHENTICATE_BATCH) {
      void sendBatch(organizationId, calls.slice(start, start + MAX_AUTHENTICATE_BATCH));
    }
  }
}

function authenticateInOrganization(organizationId: string, hash: Buffer, scopes: readonly ApiKeyScope[]): Promise<AuthenticatedKey> {
  return new Promise((resolve, reject) => {
    const call: WaitingCall = { hash, scopes, resolve, reject };
    const calls = waiting.get(organizationId);
    if (calls) calls.push(call);
    else waiting.set(organizationId, [call]);
    if (!sendScheduled) {
      sendScheduled = true;
      setImmediate(sendWaiting);
    }
  });
}

/**
 * `presented` comes from parseSecret (bearerSecret does that), so malformed keys never reach the
 * database.
 */
export async function authenticateKey(presented: PresentedSecret, requiredScopes: readonly ApiKeyScope[]): Promise<AuthenticatedKey> {
  const hash = hashSecret(presented.secret);
  const organizationId = presented.organizationId ?? (await legacyOrganization(hash));
  if (!organizationId) throw unauthorizedKey();
  return authenticateInOrganization(organizationId, hash, requiredScopes);
}

// What the authenticate benchmarks share (bench/api-key-auth.ts, bench/metrics-overhead.ts,
// bench/profile-authenticate.ts, bench/peer-better-auth.ts): the seed of 1,000 keys, the autocannon
// load, and the sequential answer-time probe.
import { randomUUID } from "node:crypto";
import http from "node:http";
import autocannon, { type Result } from "autocannon";
import pg from "pg";
import { MAX_UNREVOKED_KEYS } from "../../app/api-keys/schemas.ts";
import { generateSecret } from "../../app/api-keys/secret.server.ts";
import { legacySecret } from "../../tests/legacy-secrets.ts";
import { median } from "./stats.ts";

export const CONNECTIONS = 50;
export const KEY_COUNT = 1000;
/** Keys in use per seeded organization: the plan limit, so 1,000 keys need 40 organizations. The
 * keys of one organization follow each other in the seeded order. */
export const KEYS_PER_ORGANIZATION = MAX_UNREVOKED_KEYS;

export interface SeededKeys {
  /** 1,000 keys in use, in the format issued today (the secret names its organization). */
  secrets: string[];
  /** 1,000 more in use, 52-character secrets as releases before issue 31 issued them, each with
   * the lookup row the migration gave it (docs/decisions/0048-routed-secrets.md): what the previous
   * release authenticates, and the app's path for old secrets. */
  legacySecrets: string[];
  /** Expired and revoked keys (today's format), for the answer-time comparison. */
  expired: string[];
  revoked: string[];
}

/** Inserts keys for `organizations` (25 each, the plan limit) with their hashes and prefixes. */
async function insertKeys(client: pg.Client, organizations: string[], keys: { hash: Uint8Array; prefix: string }[], userId: string) {
  await client.query(
    `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, created_by_id)
     SELECT gen_random_uuid(), org, 'key-' || n, ARRAY['audit:view', 'member:read'], hash, prefix, $4
       FROM unnest($1::uuid[], $2::bytea[], $3::text[]) WITH ORDINALITY AS s(org, hash, prefix, n)`,
    [
      keys.map((_, i) => organizations[Math.floor(i / KEYS_PER_ORGANIZATION)]),
      keys.map((k) => Buffer.from(k.hash)),
      keys.map((k) => k.prefix),
      userId,
    ],
  );
}

/** 1,000 keys in use of each format (25 per organization, the plan limit), plus 10 expired and 10 revoked ones. */
export async function seed(databaseUrl: string): Promise<SeededKeys> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const userId = randomUUID();
    await client.query("INSERT INTO users (id, email, name, password_hash) VALUES ($1, 'bench@example.test', 'Bench', 'x')", [userId]);
    // One organization may hold only 25 unrevoked keys; the benchmark needs 1,000 of each format,
    // so they are seeded across 40 organizations each.
    const orgIds = Array.from({ length: (2 * KEY_COUNT) / KEYS_PER_ORGANIZATION }, () => randomUUID());
    await client.query(
      `INSERT INTO organizations (id, name, slug) SELECT id, 'Bench ' || n, 'bench-' || n FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n)`,
      [orgIds],
    );
    const routedOrgs = orgIds.slice(0, KEY_COUNT / KEYS_PER_ORGANIZATION);
    const legacyOrgs = orgIds.slice(KEY_COUNT / KEYS_PER_ORGANIZATION);
    const secrets = Array.from({ length: KEY_COUNT }, (_, i) => generateSecret(routedOrgs[Math.floor(i / KEYS_PER_ORGANIZATION)]!));
    await insertKeys(client, routedOrgs, secrets, userId);
    const legacySecrets = Array.from({ length: KEY_COUNT }, () => legacySecret());
    await insertKeys(client, legacyOrgs, legacySecrets, userId);
    await client.query(
      `INSERT INTO api_key_legacy_secrets (secret_hash, organization_id) SELECT secret_hash, organization_id FROM api_keys WHERE organization_id = ANY($1::uuid[])`,
      [legacyOrgs],
    );
    // For the timing comparison: keys that exist but are expired or revoked, in one more organization.
    const extraOrg = randomUUID();
    await client.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Bench extra', 'bench-extra')", [extraOrg]);
    const expired = Array.from({ length: 10 }, () => generateSecret(extraOrg));
    const revoked = Array.from({ length: 10 }, () => generateSecret(extraOrg));
    await client.query(
      `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, expires_at, revoked_at)
       SELECT gen_random_uuid(), $1, 'extra-' || n, ARRAY['audit:view'], hash, 'sk_x', CASE WHEN n <= 10 THEN now() - interval '1 day' END,
              CASE WHEN n > 10 THEN now() END
         FROM unnest($2::bytea[]) WITH ORDINALITY AS s(hash, n)`,
      [extraOrg, [...expired, ...revoked].map((s) => Buffer.from(s.hash))],
    );
    await client.query("ANALYZE api_keys");
    await client.query("ANALYZE api_key_legacy_secrets");
    return {
      secrets: secrets.map((s) => s.secret),
      legacySecrets: legacySecrets.map((s) => s.secret),
      expired: expired.map((s) => s.secret),
      revoked: revoked.map((s) => s.secret),
    };
  } finally {
    await client.end();
  }
}

export interface Scenario {
  label: string;
  url: string;
  method?: "GET" | "POST";
  /** A fresh Authorization header per request. */
  authorization?: () => string;
  /** Concurrent connections (CONNECTIONS unless said). */
  connections?: number;
}

export async function run(scenario: Scenario, duration: number): Promise<Result> {
  const method = scenario.method ?? "POST";
  const body = method === "POST" ? JSON.stringify({ json: { scopes: [] } }) : undefined;
  return autocannon({
    url: scenario.url,
    connections: scenario.connections ?? CONNECTIONS,
    duration,
    method,
    headers: method === "POST" ? { "content-type": "application/json" } : {},
    body,
    requests: [
      {
        method,
        body,
        setupRequest: (request) =>
          scenario.authorization ? { ...request, headers: { ...request.headers, authorization: scenario.authorization() } } : request,
      },
    ],
  });
}

/**
 * Sequential requests on one keep-alive connection, interleaved by kind, so the answer times of
 * unknown, expired and revoked keys can be compared (they must not tell the three apart).
 */
export async function answerTimes(url: string, kinds: Record<string, () => string>, perKind: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ json: { scopes: [] } });
  const once = (authorization: string) =>
    new Promise<{ status: number; micros: number }>((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(url, { method: "POST", agent, headers: { "content-type": "application/json", authorization } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, micros: Number(process.hrtime.bigint() - started) / 1000 }));
      });
      req.on("error", reject);
      req.end(body);
    });
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  const statuses = new Set<number>();
  for (let i = 0; i < perKind; i++) {
    for (const [kind, authorization] of Object.entries(kinds)) {
      const { status, micros } = await once(authorization());
      statuses.add(status);
      if (i >= 20) times[kind]!.push(micros); // the first rounds warm up
    }
  }
  agent.destroy();
  return { statuses: [...statuses], medians: Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)])) };
}

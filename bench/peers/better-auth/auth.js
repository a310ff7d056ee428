// The better-auth instance the peer server and its setup share: better-auth 1.7.5 with the
// @better-auth/api-key plugin, on PostgreSQL through a pg pool (better-auth wraps it in its Kysely
// adapter). Configured as a deployment would be, except for what would refuse a benchmark load:
// the plugin's per-key rate limit (by default 10 requests a day per key) and better-auth's own
// request rate limit are off. Every verify still does what a default deployment does: looks the
// key up by its SHA-256 hash, checks enabled/expiry/remaining, writes last_request and updated_at.
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import pg from "pg";

/** better-auth's options over a new pool; getMigrations takes these before any instance exists. */
export function peerOptions(databaseUrl, { poolSize = 20 } = {}) {
  // The same pool size the KeyLedger server gets in the benchmark (DATABASE_POOL_SIZE).
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const options = {
    database: pool,
    // A fixed secret: better-auth refuses to start in production without one. Nothing here is signed
    // for anyone but the benchmark.
    secret: "keyledger-bench-peer-secret-0123456789abcdef",
    baseURL: "http://127.0.0.1",
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    plugins: [apiKey({ rateLimit: { enabled: false } })],
  };
  return { options, pool };
}

/**
 * The auth instance. It checks the database schema as it starts (kept on, as by default; the result
 * is cached, so verifies do not pay for it), so create it after migrating.
 */
export function createAuth(databaseUrl, { poolSize = 20 } = {}) {
  const { options, pool } = peerOptions(databaseUrl, { poolSize });
  return { auth: betterAuth(options), pool };
}

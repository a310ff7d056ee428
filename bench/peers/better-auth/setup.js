// Prepares the peer's database: better-auth's own migration (getMigrations, what `npx auth migrate`
// runs) creates its tables, then one user and KEY_COUNT API keys are created through better-auth's
// API (auth.api.createApiKey), so the stored hashes and rows are exactly theirs. Prints the
// plaintext keys as one JSON array on stdout; progress goes to stderr.
// Run: DATABASE_URL=postgresql://… [KEY_COUNT=1000] node setup.js
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { peerOptions } from "./auth.js";

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL is required");
const keyCount = Number(process.env.KEY_COUNT ?? 1000);
/** Keys created at once: enough to keep the pool busy, few enough not to queue on it. */
const CONCURRENCY = 16;

const { options, pool } = peerOptions(databaseUrl);
try {
  const { toBeCreated, toBeAdded, runMigrations } = await getMigrations(options);
  await runMigrations();
  console.error(`better-auth migration: ${toBeCreated.length} tables created, ${toBeAdded.length} altered`);
  // Made after migrating: it checks the schema as it starts.
  const auth = betterAuth(options);

  const { user } = await auth.api.signUpEmail({
    body: { email: "bench@example.test", password: "bench-peer-password-0123", name: "Bench" },
  });
  const keys = [];
  for (let start = 0; start < keyCount; start += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, keyCount - start) }, (_, i) =>
      auth.api.createApiKey({ body: { userId: user.id, name: `bench-${start + i}` } }),
    );
    for (const created of await Promise.all(batch)) keys.push(created.key);
  }
  await pool.query("ANALYZE apikey");
  console.error(`created ${keys.length} API keys through auth.api.createApiKey`);
  process.stdout.write(`${JSON.stringify(keys)}\n`);
} finally {
  await pool.end();
}

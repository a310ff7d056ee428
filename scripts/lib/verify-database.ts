// Where `npm run audit:verify` finds the log and the keys: DATABASE_URL and the configured keys,
// or, without DATABASE_URL, the embedded database `npm start` runs (when its data directory exists)
// with the signing key `npm start` keeps beside it (docs/decisions/0062-audit-verification.md).
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { signingKeyPath } from "./audit-signing-key.ts";
import { projectRoot } from "./paths.ts";

/** The embedded database's login and database name (scripts/lib/embedded-postgres.ts, scripts/start.ts). */
const EMBEDDED = { user: "postgres", password: "postgres", database: "keyledger" };

export type DatabaseChoice = { kind: "configured" } | { kind: "embedded"; note: string } | { kind: "none"; message: string };

/** Sets DATABASE_URL (and AUDIT_SIGNING_KEY from the key file) for the embedded database when
 * DATABASE_URL is unset; says which database is used. */
export function chooseDatabase(env: NodeJS.ProcessEnv): DatabaseChoice {
  if (env.DATABASE_URL) return { kind: "configured" };
  const dataDir = resolve(projectRoot, env.EMBEDDED_POSTGRES_DIR ?? join(".data", "postgres"));
  const port = Number(env.EMBEDDED_POSTGRES_PORT ?? 54329);
  if (!existsSync(join(dataDir, "PG_VERSION")) || !Number.isInteger(port) || port < 1 || port > 65535) {
    return {
      kind: "none",
      message: "DATABASE_URL is not set. Set it to the PostgreSQL database, e.g. DATABASE_URL=postgresql://user:pass@host:5432/keyledger",
    };
  }
  env.DATABASE_URL = `postgresql://${EMBEDDED.user}:${EMBEDDED.password}@127.0.0.1:${port}/${EMBEDDED.database}`;
  // The key `npm start` made beside the data directory, unless one is configured.
  const keyFile = signingKeyPath(dataDir);
  if (!env.AUDIT_SIGNING_KEY && existsSync(keyFile)) env.AUDIT_SIGNING_KEY = readFileSync(keyFile, "utf8");
  return {
    kind: "embedded",
    note: `DATABASE_URL is not set: using the embedded database of \`npm start\` (127.0.0.1:${port}, data in ${relative(projectRoot, dataDir) || dataDir}).`,
  };
}

// Where `npm run audit:verify` finds the log and the keys: DATABASE_URL and the configured keys,
// or, without DATABASE_URL, the embedded database `npm start` runs (when its data directory exists)
// with the signing key `npm start` keeps beside it (docs/decisions/0062-audit-verification.md).
import { existsSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { signingKeyPath } from "./audit-signing-key.ts";
import { MISSING_DATABASE_URL } from "./command-line.ts";
import { EMBEDDED_DATABASE, embeddedDataDir, embeddedPort, embeddedUrl } from "./embedded-defaults.ts";
import { projectRoot } from "./paths.ts";

export type DatabaseChoice = { kind: "configured" } | { kind: "embedded"; note: string } | { kind: "none"; message: string };

/** Sets DATABASE_URL (and AUDIT_SIGNING_KEY from the key file) for the embedded database when
 * DATABASE_URL is unset; says which database is used. */
export function chooseDatabase(env: NodeJS.ProcessEnv): DatabaseChoice {
  if (env.DATABASE_URL) return { kind: "configured" };
  const dataDir = embeddedDataDir(projectRoot, env);
  const port = embeddedPort(env);
  if (!existsSync(join(dataDir, "PG_VERSION")) || !Number.isInteger(port) || port < 1 || port > 65535) {
    return { kind: "none", message: MISSING_DATABASE_URL };
  }
  env.DATABASE_URL = embeddedUrl(port, EMBEDDED_DATABASE);
  // The key `npm start` made beside the data directory, unless one is configured.
  const keyFile = signingKeyPath(dataDir);
  if (!env.AUDIT_SIGNING_KEY && existsSync(keyFile)) env.AUDIT_SIGNING_KEY = readFileSync(keyFile, "utf8");
  return {
    kind: "embedded",
    note: `DATABASE_URL is not set: using the embedded database of \`npm start\` (127.0.0.1:${port}, data in ${relative(projectRoot, dataDir) || dataDir}).`,
  };
}

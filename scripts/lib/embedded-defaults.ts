// Where `npm start` keeps its embedded PostgreSQL and how to log in to it: read by the start
// (scripts/start.ts, scripts/lib/embedded-postgres.ts) and by the commands that use the demo's
// database when DATABASE_URL is unset (scripts/lib/verify-database.ts). Kept apart from
// embedded-postgres.ts, which loads the embedded-postgres package and its signal hooks.
import { join, resolve } from "node:path";

export const EMBEDDED_USER = "postgres";
export const EMBEDDED_PASSWORD = "postgres";
export const EMBEDDED_DATABASE = "keyledger";

/** EMBEDDED_POSTGRES_DIR, or .data/postgres, under `root`. */
export function embeddedDataDir(root: string, env: NodeJS.ProcessEnv): string {
  return resolve(root, env.EMBEDDED_POSTGRES_DIR ?? join(".data", "postgres"));
}

/** EMBEDDED_POSTGRES_PORT, or 54329; not checked (the caller says what a bad one means). */
export function embeddedPort(env: NodeJS.ProcessEnv): number {
  return Number(env.EMBEDDED_POSTGRES_PORT ?? 54329);
}

/** The URL of database `database` on the embedded server at `port`. */
export function embeddedUrl(port: number, database: string): string {
  return `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
}

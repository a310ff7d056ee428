// Test database lifecycle. One PostgreSQL server per test run (embedded unless TEST_DATABASE_URL
// or DATABASE_URL names one), one migrated template database, and one fresh database per test
// file cloned from the template (CREATE DATABASE … TEMPLATE is a file copy: milliseconds).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../scripts/lib/embedded-postgres.ts";
import { migrate } from "../../scripts/lib/migrate.ts";
import { freePort } from "../../scripts/lib/free-port.ts";

export const TEMPLATE_DATABASE = "keyledger_test_template";

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** What every test database is sent, kept for tests/statements/tenant-statements.test.ts: room for
 * every distinct statement of the suite, client statements only, no DDL. */
const STATEMENT_STATISTICS = {
  shared_preload_libraries: "pg_stat_statements",
  "pg_stat_statements.max": "20000",
  "pg_stat_statements.track_utility": "off",
};

export interface TestServer {
  /** URL of a maintenance database on the server (used to create and drop test databases). */
  adminUrl: string;
  stop(): Promise<void>;
}

export async function startTestServer(): Promise<TestServer> {
  const external = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  let embedded: EmbeddedDatabase | undefined;
  let dataRoot: string | undefined;
  let adminUrl: string;
  if (external) {
    adminUrl = withDatabase(external, "postgres");
  } else {
    dataRoot = await mkdtemp(join(tmpdir(), "keyledger-test-pg-"));
    embedded = await startEmbeddedPostgres({
      dataDir: join(dataRoot, "data"),
      port: await freePort(),
      database: "postgres",
      settings: STATEMENT_STATISTICS,
    });
    adminUrl = embedded.url;
    await admin(adminUrl, (c) => c.query("CREATE EXTENSION pg_stat_statements"));
  }
  await recreateDatabase(adminUrl, TEMPLATE_DATABASE);
  await migrate(withDatabase(adminUrl, TEMPLATE_DATABASE));
  return {
    adminUrl,
    stop: async () => {
      await dropDatabase(adminUrl, TEMPLATE_DATABASE).catch(() => {});
      await embedded?.stop();
      if (dataRoot) await rm(dataRoot, { recursive: true, force: true });
    },
  };
}

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function recreateDatabase(adminUrl: string, name: string) {
  await dropDatabase(adminUrl, name);
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
}

export async function dropDatabase(adminUrl: string, name: string) {
  await admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** A fresh, migrated database for one test file. */
export async function cloneTemplate(adminUrl: string): Promise<{ name: string; url: string }> {
  const name = `keyledger_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`));
  return { name, url: withDatabase(adminUrl, name) };
}

// Applies prisma/migrations/*/migration.sql the way `prisma migrate deploy` does, without Prisma's
// native schema engine (which cannot be downloaded on every machine). The bookkeeping table, the
// checksum (SHA-256 of the file) and the advisory lock key are Prisma's own, so the two tools stay
// interchangeable on one database. Unlike Prisma, each migration runs in one transaction with its
// bookkeeping row: a failed migration leaves nothing half-applied.
//
// Except a file whose first line is NO_TRANSACTION_MARKER (docs/decisions/0039-housekeeping-plans-and-migrations.md):
// it holds exactly one statement, run outside any transaction, so it can `CREATE INDEX
// CONCURRENTLY` without stalling writes (scripts/lib/migrate-no-transaction.ts).
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Logger, runMigrations } from "graphile-worker";
import pg from "pg";
import { openJobQueueToApp } from "./job-queue-role.ts";
import { isNoTransaction, runWithoutTransaction } from "./migrate-no-transaction.ts";
import { migrationsDir } from "./paths.ts";

/** The lock key Prisma Migrate uses, so a concurrent `prisma migrate deploy` waits for us. */
const PRISMA_ADVISORY_LOCK = 72707369;

export const MIGRATIONS_DIR = migrationsDir;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Takes Prisma's advisory lock, trying again every `LOCK_RETRY_MS` rather than waiting inside
 * `pg_advisory_lock`: a session blocked in that call holds a snapshot, and another instance's
 * `CREATE INDEX CONCURRENTLY` waits for every older snapshot to end, so two instances starting
 * together would deadlock (and PostgreSQL would cancel one of them, the index build perhaps).
 */
const LOCK_RETRY_MS = 250;
async function takeMigrationLock(client: pg.Client) {
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [PRISMA_ADVISORY_LOCK]);
    if (rows[0]?.locked) return;
    await sleep(LOCK_RETRY_MS);
  }
}

interface AppliedRow {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/** Applies pending migrations; returns the names it applied. */
export async function migrate(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await takeMigrationLock(client);
    // Only when missing: CREATE TABLE IF NOT EXISTS still needs CREATE on the schema, which a login
    // that is not the owner (a member of keyledger_app, with the migrations applied by the owner
    // beforehand) does not have; with nothing pending its start must still pass this check.
    const { rows: bookkeeping } = await client.query<{ exists: boolean }>(
      `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`,
    );
    if (!bookkeeping[0]?.exists) await client.query(CREATE_TABLE);
    const { rows } = await client.query<AppliedRow>(
      `SELECT id, migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const files = new Map(migrations.map((m) => [m.name, m]));
    // A started row that never finished: a transactional migration cannot leave one (its row
    // commits with it), so someone else's tool did, and a person must look. A no-transaction
    // migration leaves one when its process died or its statement failed: it is redone below.
    const interrupted = new Map<string, AppliedRow>();
    for (const row of rows) {
      if (row.finished_at) continue;
      const file = files.get(row.migration_name);
      if (!file || !isNoTransaction(file.sql)) {
        throw new MigrationError(`Migration ${row.migration_name} started but never finished; resolve it before migrating.`);
      }
      interrupted.set(row.migration_name, row);
    }
    const done = new Map(rows.filter((r) => r.finished_at).map((r) => [r.migration_name, r]));
    for (const migration of migrations) {
      const existing = done.get(migration.name);
      if (existing) {
        if (existing.checksum !== migration.checksum) {
          throw new MigrationError(
            `Migration ${migration.name} was already applied, but its migration.sql has changed since. ` +
              `Applied migrations must never be edited; add a new migration instead.`,
          );
        }
        continue;
      }
      if (isNoTransaction(migration.sql)) {
        await runWithoutTransaction(client, migration, interrupted.get(migration.name)?.id ?? null).catch((error: Error) => {
          throw new MigrationError(`Migration ${migration.name} failed: ${error.message}`, { cause: error });
        });
      } else {
        await runInTransaction(client, migration);
      }
      applied.push(migration.name);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
  if (dir === MIGRATIONS_DIR) await migrateJobQueue(databaseUrl);
  return applied;
}

/** The usual way: the file and its bookkeeping row in one transaction. */
async function runInTransaction(client: pg.Client, migration: MigrationFile) {
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, now(), $3, now(), 1)`,
      [randomUUID(), migration.checksum, migration.name],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
  }
}

/** The job queue's own schema (graphile_worker), kept by graphile-worker's migrations, which take
 * their own lock. Installed with ours so the first add_job in a transaction never waits for it, and
 * by the owner: the app's role may not create anything (docs/decisions/0049-append-only-by-privileges.md),
 * so it is then opened to that role, tables graphile-worker has just made included. */
async function migrateJobQueue(databaseUrl: string) {
  await runMigrations({ connectionString: databaseUrl, logger: new Logger(() => () => {}) });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await openJobQueueToApp(client);
  } finally {
    await client.end();
  }
}

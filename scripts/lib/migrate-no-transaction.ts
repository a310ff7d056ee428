// Migrations that run outside a transaction (first line NO_TRANSACTION_MARKER), so a file can
// `CREATE INDEX CONCURRENTLY` while the app keeps writing (docs/decisions/0039-housekeeping-plans-and-migrations.md).
//
// One statement per file: PostgreSQL runs several statements sent as one query as one implicit
// transaction, where CONCURRENTLY is refused, and splitting SQL text safely needs a parser. The
// file is sent with the extended protocol, which takes exactly one statement, so PostgreSQL itself
// refuses a second one.
//
// Bookkeeping stays Prisma's: the row is written as started before the statement and finished
// after it. A build that failed or whose process died leaves an INVALID index
// (pg_index.indisvalid = false) and an unfinished row; the next migrate retires that row as
// Prisma's `migrate resolve --rolled-back` would, drops the invalid index and builds it again.
import { randomUUID } from "node:crypto";
import type pg from "pg";

export const NO_TRANSACTION_MARKER = "-- keyledger:no-transaction";

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function isNoTransaction(sql: string): boolean {
  return sql.split(/\r?\n/, 1)[0]!.trim() === NO_TRANSACTION_MARKER;
}

const CONCURRENT_BUILD = /\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\b/i;
const NAMED_CONCURRENT_BUILD =
  /\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_$]*)\s+ON\s/i;

/**
 * The index a `CREATE INDEX CONCURRENTLY name ON …` statement builds, as the catalog spells it
 * (unquoted names fold to lower case); null when the statement builds no index concurrently.
 * A concurrent build must name its index, or an interrupted one could not be found again.
 */
export function concurrentIndexName(sql: string): string | null {
  const code = sql.replace(/--[^\n]*/g, "");
  if (!CONCURRENT_BUILD.test(code)) return null;
  const name = NAMED_CONCURRENT_BUILD.exec(code)?.[1];
  if (!name || name.toUpperCase() === "ON")
    throw new Error("CREATE INDEX CONCURRENTLY must name its index (CREATE INDEX CONCURRENTLY name ON …).");
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name.toLowerCase();
}

/** The index by that name in the search path, and whether its build completed. */
async function findIndex(client: pg.Client, name: string): Promise<{ qualified: string; valid: boolean } | null> {
  const { rows } = await client.query<{ qualified: string; valid: boolean }>(
    `SELECT format('%I.%I', n.nspname, c.relname) AS qualified, i.indisvalid AS valid
       FROM pg_class c
       JOIN pg_index i ON i.indexrelid = c.oid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relname = $1 AND n.nspname = ANY (current_schemas(false))
      ORDER BY array_position(current_schemas(false), n.nspname::text)
      LIMIT 1`,
    [name],
  );
  return rows[0] ?? null;
}

/** An invalid index is never read but is still written on every change (and a unique one still
 * refuses duplicates): drop it rather than leave it behind. */
async function dropIfInvalid(client: pg.Client, name: string): Promise<"dropped" | "valid" | "absent"> {
  const index = await findIndex(client, name);
  if (!index) return "absent";
  if (index.valid) return "valid";
  await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${index.qualified}`);
  return "dropped";
}

/**
 * Runs one no-transaction migration. `interruptedRowId`: the unfinished row an earlier attempt
 * left, which is retired first (kept as history, like Prisma's rolled-back rows).
 */
export async function runWithoutTransaction(client: pg.Client, migration: MigrationFile, interruptedRowId: string | null): Promise<void> {
  const index = concurrentIndexName(migration.sql);
  if (interruptedRowId) {
    await client.query(`UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = $1`, [interruptedRowId]);
  }
  // An invalid index by that name can only be an earlier, interrupted build of this file. A valid
  // one after an interrupted attempt was built before the process died, before its row was
  // marked finished: nothing to redo. (A valid one on a first attempt is the statement's to judge.)
  const found = index ? await dropIfInvalid(client, index) : "absent";
  const alreadyBuilt = interruptedRowId !== null && found === "valid";
  const id = randomUUID();
  await client.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
    [id, migration.checksum, migration.name],
  );
  if (!alreadyBuilt) {
    try {
      const statement: pg.QueryConfig & { queryMode: "extended" } = { text: migration.sql, queryMode: "extended" };
      await client.query(statement);
    } catch (error) {
      const message = (error as Error).message;
      await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, message]);
      if (index) await dropIfInvalid(client, index).catch(() => {});
      throw new Error(
        /multiple commands/.test(message) ? `a ${NO_TRANSACTION_MARKER} migration holds exactly one statement (${message})` : message,
        { cause: error },
      );
    }
  }
  await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
}

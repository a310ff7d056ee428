// Whether this instance should get traffic (`GET /readyz`): the database answers, every migration
// this build knows is applied, the job worker runs, and the process is not draining. Liveness
// (`/livez`) asks none of this: a database outage must not make an orchestrator restart every
// instance (docs/decisions/0037-health-readiness-and-drain.md).
import { pool } from "~/db.server";
import { databaseReachable } from "~/lib/health.server";
import { isDraining, workerRunning } from "~/lib/lifecycle.server";

export type ReadinessCheck = "database" | "migrations" | "worker" | "draining";

export interface Readiness {
  ready: boolean;
  /** The checks that failed, in this order: draining, database, migrations, worker. */
  failing: ReadinessCheck[];
}

/** How long the database may take to answer a trivial query before the instance counts as not
 * ready (a pool with every connection busy counts too: requests would wait as long). */
export const DATABASE_CHECK_TIMEOUT_MS = 2_000;

/** The migrations this build was made with: the bundle lists prisma/migrations at build time
 * (the SQL is never loaded, only the names are read). */
const BUILD_MIGRATIONS: readonly string[] = Object.keys(import.meta.glob("/prisma/migrations/*/migration.sql", { query: "?raw" }))
  .map((path) => path.split("/").at(-2)!)
  .sort();

export function buildMigrations(): readonly string[] {
  return BUILD_MIGRATIONS;
}

/** Once every migration was seen applied it stays so: migrations are never taken back. */
let migrationsConfirmed = false;
/** One check at a time: probes arriving together share it. */
let running: Promise<Readiness> | null = null;

class CheckTimeout extends Error {}

function withinTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), DATABASE_CHECK_TIMEOUT_MS);
  });
  // A late failure of the query after the timeout won must not become an unhandled rejection.
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** /healthz's own check, bounded by the readiness timeout. */
function databaseAnswers(): Promise<boolean> {
  return withinTimeout(databaseReachable()).catch(() => false);
}

/** Every migration of this build has a finished, not rolled back row in _prisma_migrations. */
async function migrationsApplied(expected: readonly string[]): Promise<boolean> {
  if (migrationsConfirmed) return true;
  try {
    const { rows } = await withinTimeout(
      pool().query<{ name: string }>(
        `SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      ),
    );
    const applied = new Set(rows.map((row) => row.name));
    migrationsConfirmed = expected.every((name) => applied.has(name));
  } catch {
    // No bookkeeping table yet (a database never migrated), or the database stopped answering.
    return false;
  }
  return migrationsConfirmed;
}

async function check(expected: readonly string[]): Promise<Readiness> {
  const failing: ReadinessCheck[] = [];
  if (isDraining()) failing.push("draining");
  // With the database silent the migrations cannot be read: only the database is named.
  if (!(await databaseAnswers())) failing.push("database");
  else if (!(await migrationsApplied(expected))) failing.push("migrations");
  if (!workerRunning()) failing.push("worker");
  return { ready: failing.length === 0, failing };
}

/** The instance's readiness now. `expected` is for tests; the app checks its build's migrations. */
export function readiness(expected: readonly string[] = BUILD_MIGRATIONS): Promise<Readiness> {
  running ??= check(expected).finally(() => {
    running = null;
  });
  return running;
}

/** Forget that the migrations were seen applied (tests only). */
export function resetReadinessForTests(): void {
  migrationsConfirmed = false;
  running = null;
}

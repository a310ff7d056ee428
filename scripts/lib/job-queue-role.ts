// The job queue's schema (graphile_worker), opened to the app's role, keyledger_app
// (docs/decisions/0049-append-only-by-privileges.md). graphile-worker makes and upgrades its schema
// with its own migrations, which the migrator runs as the owner (scripts/lib/migrate.ts) before any
// instance starts; the app then works in it as keyledger_app: adding jobs in its transactions,
// its worker taking, finishing and failing them, the cron bookkeeping, the metrics' counts.
//
// Two things the default privileges of the migrations cannot give: tables graphile-worker made
// before them (an existing database), and its private tables' row-level security, switched on with
// no policy (so that a tool exposing the database through an API shows none of them): the owner
// passes, any other role sees no row and may add none. keyledger_app gets a policy on each that
// lets it do everything, which is what the owner could. Checked after every migration run and
// applied only when something is missing, so a start with nothing new changes nothing.
import type pg from "pg";

const APP_ROLE = "keyledger_app";
const POLICY = "keyledger_app_works_the_queue";

/** What keyledger_app still lacks in the schema: tables, sequences, the schema itself, policies. */
const MISSING = `
  SELECT format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I.%I TO ${APP_ROLE}', n.nspname, c.relname) AS statement
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = 'graphile_worker' AND c.relkind IN ('r', 'v', 'p')
     AND NOT (has_table_privilege('${APP_ROLE}', c.oid, 'SELECT') AND has_table_privilege('${APP_ROLE}', c.oid, 'INSERT')
          AND has_table_privilege('${APP_ROLE}', c.oid, 'UPDATE') AND has_table_privilege('${APP_ROLE}', c.oid, 'DELETE'))
  UNION ALL
  SELECT format('GRANT USAGE, SELECT, UPDATE ON SEQUENCE %I.%I TO ${APP_ROLE}', n.nspname, c.relname)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   -- CASE: has_sequence_privilege refuses anything but a sequence, and AND does not order its checks.
   WHERE n.nspname = 'graphile_worker' AND CASE WHEN c.relkind = 'S' THEN NOT has_sequence_privilege('${APP_ROLE}', c.oid, 'USAGE') END
  UNION ALL
  SELECT format('CREATE POLICY ${POLICY} ON %I.%I TO ${APP_ROLE} USING (true) WITH CHECK (true)', n.nspname, c.relname)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = 'graphile_worker' AND c.relrowsecurity
     AND NOT EXISTS (SELECT FROM pg_policy p WHERE p.polrelid = c.oid AND p.polname = '${POLICY}')
  UNION ALL
  SELECT 'GRANT USAGE ON SCHEMA graphile_worker TO ${APP_ROLE}'
   WHERE to_regnamespace('graphile_worker') IS NOT NULL AND NOT has_schema_privilege('${APP_ROLE}', 'graphile_worker', 'USAGE')`;

/** Grants what is missing, in one transaction; returns how many statements that took. */
export async function openJobQueueToApp(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ statement: string }>(MISSING);
  if (rows.length === 0) return 0;
  await client.query("BEGIN");
  try {
    for (const { statement } of rows) await client.query(statement);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
  return rows.length;
}

// Runs after the whole suite (its own vitest project, a later group: vitest.config.ts) and reads
// what the app sent every test database of the run, from pg_stat_statements: no statement on a
// distributed table may leave out the value of its distribution column, or on Citus it would
// reach every shard (docs/scale-out.md). The few that may, background sweeps over every
// organization and the platform admin's cross-tenant views, are listed with their reason.
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { TEMPLATE_DATABASE } from "../setup/database";
import { ALLOWED_SCATTER } from "./allowed-scatter";
import { scatteringTables } from "./statement-rules";

interface Recorded {
  query: string;
  calls: number;
}

async function recordedStatements(): Promise<Recorded[] | null> {
  const client = new pg.Client({ connectionString: inject("databaseAdminUrl") });
  await client.connect();
  try {
    const installed = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'");
    if (installed.rowCount === 0) return null;
    const { rows } = await client.query<{ query: string; calls: string }>(
      // What the app sent: it works as keyledger_app (decision 0049), while the migrations and the
      // tests' own checks of the catalog and of raw rows run as the owner. Each test file's database
      // is dropped when it ends; its statements stay, under its old oid.
      `SELECT query, sum(calls)::text AS calls FROM pg_stat_statements
        WHERE userid = (SELECT oid FROM pg_roles WHERE rolname = 'keyledger_app')
          AND dbid NOT IN (SELECT oid FROM pg_database WHERE datname IN ('postgres', $1)) GROUP BY query`,
      [TEMPLATE_DATABASE],
    );
    return rows.map((row) => ({ query: row.query, calls: Number(row.calls) }));
  } finally {
    await client.end();
  }
}

const folded = (query: string) => query.replace(/\s+/g, " ").trim();

const recorded = await recordedStatements();

describe.skipIf(recorded === null)("statements on distributed tables, across the whole suite", () => {
  const statements = recorded ?? [];

  it("were recorded (run this after the whole suite: `npx vitest run`)", () => {
    expect(statements.filter((s) => /\bapi_keys\b/.test(s.query)).length).toBeGreaterThan(10);
  });

  it("each name the value of their table's distribution column, or are allowed with a reason", () => {
    const scattering = statements.flatMap(({ query, calls }) => {
      const tables = scatteringTables(query);
      if (tables.length === 0 || ALLOWED_SCATTER.some((allowed) => allowed.statement.test(folded(query)))) return [];
      return [`[${tables.join(", ")}] ×${calls} ${folded(query).slice(0, 600)}`];
    });
    expect(scattering.sort()).toEqual([]);
  });

  it("allows nothing the suite no longer sends", () => {
    const unused = ALLOWED_SCATTER.filter((allowed) => !statements.some(({ query }) => allowed.statement.test(folded(query))));
    expect(unused.map((allowed) => allowed.reason)).toEqual([]);
  });
});

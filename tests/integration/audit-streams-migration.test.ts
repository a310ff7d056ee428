// The migrations of audit streaming (issue 32) convert a database that already holds events in
// place: the events are not rewritten (same file on disk), keep transaction_id NULL (read as '0':
// all committed before any stream existed), and every event written afterwards carries its
// writing transaction's id; the stream order's index is built and valid, and the app's role may
// use the new tables.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { MIGRATIONS_DIR, migrate } from "../../scripts/lib/migrate";
import { dropDatabase, withDatabase } from "../setup/database";

/** The first migration of audit streaming: everything before it is the "old" schema. */
const FIRST_OF_THESE = "20261205000000";

const adminUrl = inject("databaseAdminUrl");
const database = `keyledger_streams_${process.pid}_${randomUUID().slice(0, 8)}`;
const url = withDatabase(adminUrl, database);

async function run<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

async function migrationsBeforeThese(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "migrations-before-streams-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  for (const name of await readdir(dir)) {
    if (name >= FIRST_OF_THESE && /^\d{14}_/.test(name)) await rm(join(dir, name), { recursive: true });
  }
  return dir;
}

const ids = { owner: randomUUID(), acme: randomUUID(), oldEvent: randomUUID(), newEvent: randomUUID() };

const insertEvent = (id: string) =>
  `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
   VALUES ('${id}', '${ids.acme}', 'organization.created', 'user', '${ids.owner}', 'organization', '${ids.acme}', '{}', 'hash')`;

const storage = async () => (await run<{ file: string }>(`SELECT pg_relation_filenode('audit_events')::text AS file`))[0]!.file;

const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${database}"`);
await admin.end();
await migrate(url, await migrationsBeforeThese());
await run(`INSERT INTO users (id, email, name, password_hash, email_verified_at) VALUES ($1, 'old@example.test', 'Old', 'x', now())`, [
  ids.owner,
]);
await run(`INSERT INTO organizations (id, name, slug, plan_id) VALUES ($1, 'Acme', 'acme', 'enterprise')`, [ids.acme]);
await run(insertEvent(ids.oldEvent));
const fileBefore = await storage();
const applied = await migrate(url);

afterAll(async () => {
  await dropDatabase(adminUrl, database);
});

describe("the audit streaming migrations, on a database that already has events", () => {
  it("applied both, without rewriting the events' table", async () => {
    expect(applied).toEqual(expect.arrayContaining(["20261205000000_audit_streams", "20261205000001_audit_events_stream_order_index"]));
    expect(await storage()).toBe(fileBefore);
  });

  it("keeps the existing event's transaction id NULL and gives a new event its writer's transaction id", async () => {
    expect(await run(`SELECT transaction_id FROM audit_events WHERE id = $1`, [ids.oldEvent])).toEqual([{ transaction_id: null }]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query("SET LOCAL ROLE keyledger_app");
      await client.query(insertEvent(ids.newEvent));
      const writer = (await client.query<{ xid: string }>(`SELECT pg_current_xact_id()::text AS xid`)).rows[0]!.xid;
      await client.query("COMMIT");
      const stored = await run<{ xid: string }>(`SELECT transaction_id::text AS xid FROM audit_events WHERE id = $1`, [ids.newEvent]);
      expect(stored).toEqual([{ xid: writer }]);
    } finally {
      await client.end();
    }
  });

  it("orders the old event before the new one in stream order, through a valid index", async () => {
    const order = await run<{ id: string }>(
      `SELECT id FROM audit_events WHERE organization_id = $1 ORDER BY COALESCE(transaction_id, '0'::xid8), id`,
      [ids.acme],
    );
    expect(order.map((row) => row.id)).toEqual([ids.oldEvent, ids.newEvent]);
    expect(
      await run(
        `SELECT i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) LIKE '%COALESCE(transaction_id%' AS expression
           FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relname = 'audit_events_stream_order_idx'`,
      ),
    ).toEqual([{ valid: true, expression: true }]);
  });

  it("lets the app's role read and write the new tables, and removes them with their organization", async () => {
    const privileges = await run<{ table: string; ok: boolean }>(
      `SELECT t AS table, has_table_privilege('keyledger_app', t, 'SELECT, INSERT, UPDATE, DELETE') AS ok
         FROM unnest(ARRAY['audit_streams', 'audit_stream_failures']) AS t`,
    );
    expect(privileges).toEqual([
      { table: "audit_streams", ok: true },
      { table: "audit_stream_failures", ok: true },
    ]);
    const stream = randomUUID();
    await run(
      `INSERT INTO audit_streams (organization_id, id, name, kind, settings, credentials) VALUES ($1, $2, 'SIEM', 'webhook', '{}', '{}')`,
      [ids.acme, stream],
    );
    await run(`INSERT INTO audit_stream_failures (organization_id, stream_id, id, failure, detail) VALUES ($1, $2, $3, 'timeout', 'x')`, [
      ids.acme,
      stream,
      randomUUID(),
    ]);
    expect(
      await run(`SELECT cursor_transaction_id::text AS tx, cursor_event_id, version, paused FROM audit_streams WHERE id = $1`, [stream]),
    ).toEqual([{ tx: "0", cursor_event_id: "00000000-0000-0000-0000-000000000000", version: 1, paused: false }]);
    await run(`DELETE FROM organizations WHERE id = $1`, [ids.acme]);
    expect(
      await run(
        `SELECT (SELECT count(*) FROM audit_streams)::int AS streams, (SELECT count(*) FROM audit_stream_failures)::int AS failures`,
      ),
    ).toEqual([{ streams: 0, failures: 0 }]);
  });

  it("refuses a kind that is not one of the four", async () => {
    await expect(
      run(`INSERT INTO audit_streams (organization_id, id, name, kind, settings, credentials) VALUES ($1, $2, 'x', 'ftp', '{}', '{}')`, [
        ids.acme,
        randomUUID(),
      ]),
    ).rejects.toThrow(/audit_streams_kind_check/); // (a CHECK fails before the foreign key is looked at)
  });
});

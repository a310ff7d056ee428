// The audit log and the support records are append-only by privileges, not triggers
// (docs/decisions/0049-append-only-by-privileges.md): every connection the app opens works as
// keyledger_app, which may read and add rows there but not change or remove them; the login that
// ran the migrations owns the tables and still may; an organization's deletion still takes its log
// and rollups with it (the foreign keys' cascade runs as the owner); and no trigger is left on
// either table for Citus to refuse.
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { describe, expect, it } from "vitest";
import { recordAuditEvent } from "~/audit/record.server";
import { APP_ROLE, exportPool, metricsPool, pool, prisma } from "~/db.server";
import { withClient } from "../../scripts/lib/pg-client.ts";
import { createOrganizationWith, createUser } from "../factories";

/** An organization with a user-recorded event (so every rollup has a row) and a support record. */
async function organizationWithHistory() {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  const { id } = await prisma.$transaction((tx) =>
    recordAuditEvent(tx, {
      organizationId: organization.id,
      action: "member.role_changed",
      actor: { kind: "user", id: user.id },
      target: { type: "user", id: user.id },
      details: { from: "admin", to: "owner" },
    }),
  );
  const supportId = uuidv7();
  await pool().query(
    `INSERT INTO support_actions (id, admin_user_id, organization_id, action, reason) VALUES ($1, $2, $3, 'audit_log.listed', 'A customer asked us to look')`,
    [supportId, user.id, organization.id],
  );
  return { user, organization, eventId: id, supportId };
}

/** Everything the organization's log and support records hold, to compare before and after. */
async function snapshot(organizationId: string) {
  const read = async (table: string) =>
    (await pool().query(`SELECT * FROM ${table} t WHERE organization_id = $1 ORDER BY t::text`, [organizationId])).rows;
  return {
    events: await read("audit_events"),
    support: await read("support_actions"),
    days: await read("audit_event_days"),
    actors: await read("audit_event_actors"),
    users: await read("audit_event_users"),
  };
}

/** The SQLSTATE a refused statement failed with (42501: insufficient_privilege). */
async function refusal(statement: Promise<unknown>): Promise<string | undefined> {
  try {
    await statement;
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
}

describe("the app's role", () => {
  it("is taken on every connection the app opens: the shared pool, Prisma's, the exports' and the metrics'", async () => {
    const who = "SELECT current_user AS role, session_user AS login";
    const login = (await withClient(process.env.DATABASE_URL!, (c) => c.query<{ login: string }>(who))).rows[0]!.login;
    const expected = [{ role: APP_ROLE, login }];
    expect((await pool().query(who)).rows).toEqual(expected);
    expect(await prisma.$queryRaw`SELECT current_user AS role, session_user AS login`).toEqual(expected);
    expect(await prisma.$transaction((tx) => tx.$queryRaw`SELECT current_user AS role, session_user AS login`)).toEqual(expected);
    expect((await exportPool().query(who)).rows).toEqual(expected);
    expect((await metricsPool().query(who)).rows).toEqual(expected);
  });

  it("may not UPDATE, DELETE or TRUNCATE audit events or support records (42501), and nothing changes", async () => {
    const { organization, eventId, supportId } = await organizationWithHistory();
    const before = await snapshot(organization.id);
    const statements = [
      ["UPDATE audit_events SET details = '{}' WHERE id = $1", [eventId]],
      ["UPDATE audit_events SET created_at = created_at - interval '1 day' WHERE organization_id = $1", [organization.id]],
      ["DELETE FROM audit_events WHERE id = $1", [eventId]],
      ["TRUNCATE audit_events CASCADE", []],
      ["UPDATE support_actions SET reason = 'nothing to see' WHERE id = $1", [supportId]],
      ["DELETE FROM support_actions WHERE id = $1", [supportId]],
      ["TRUNCATE support_actions", []],
      // The rollups: added to by the recorder, never changed otherwise.
      ["DELETE FROM audit_event_days WHERE organization_id = $1", [organization.id]],
      ["UPDATE audit_event_days SET day = day - 1 WHERE organization_id = $1", [organization.id]],
      ["DELETE FROM audit_event_actors WHERE organization_id = $1", [organization.id]],
      ["UPDATE audit_event_users SET user_id = 'someone else' WHERE organization_id = $1", [organization.id]],
      ["TRUNCATE audit_event_users", []],
    ] as const;
    for (const [sql, values] of statements) expect(await refusal(pool().query(sql, [...values])), sql).toBe("42501");
    // Through Prisma as well, inside an interactive transaction too.
    await expect(
      prisma.auditEvent.update({
        where: { organizationId_id: { organizationId: organization.id, id: eventId } },
        data: { action: "api_key.revoked" },
      }),
    ).rejects.toThrow(/permission denied for table audit_events/);
    await expect(prisma.auditEvent.deleteMany({ where: { organizationId: organization.id } })).rejects.toThrow(/permission denied/);
    await expect(prisma.$transaction((tx) => tx.supportAction.deleteMany({ where: { id: supportId } }))).rejects.toThrow(
      /permission denied for table support_actions/,
    );
    expect(await snapshot(organization.id)).toEqual(before);
  });

  it("leaves the owner (the login that ran the migrations) free to change them, as the demo seed and an operator's purge do", async () => {
    const { organization, eventId, supportId } = await organizationWithHistory();
    const before = await snapshot(organization.id);
    await withClient(process.env.DATABASE_URL!, async (owner) => {
      await owner.query("BEGIN");
      expect((await owner.query("UPDATE audit_events SET details = '{}' WHERE id = $1", [eventId])).rowCount).toBe(1);
      expect((await owner.query("DELETE FROM audit_events WHERE id = $1", [eventId])).rowCount).toBe(1);
      expect((await owner.query("UPDATE support_actions SET reason = 'changed by the owner' WHERE id = $1", [supportId])).rowCount).toBe(1);
      expect((await owner.query("DELETE FROM audit_event_days WHERE organization_id = $1", [organization.id])).rowCount).toBe(1);
      await owner.query("TRUNCATE support_actions");
      await owner.query("ROLLBACK");
    });
    expect(await snapshot(organization.id)).toEqual(before);
  });

  it("still removes an organization's events, rollups and grants with it when the app deletes it", async () => {
    const gone = await organizationWithHistory();
    const kept = await organizationWithHistory();
    const keptBefore = await snapshot(kept.organization.id);
    const goneBefore = await snapshot(gone.organization.id);
    expect([goneBefore.events, goneBefore.days, goneBefore.actors, goneBefore.users].map((rows) => rows.length)).toEqual([1, 1, 1, 1]);
    // As keyledger_app (the pool's role): the cascade deletes as the owner of each referencing table.
    await prisma.organization.delete({ where: { id: gone.organization.id } });
    const after = await snapshot(gone.organization.id);
    expect({ ...after, support: [] }).toEqual({ events: [], support: [], days: [], actors: [], users: [] });
    // The support records outlive the organization (no foreign key): the app may not remove them.
    expect(after.support.map((r: { id: string }) => r.id)).toEqual([gone.supportId]);
    expect(await snapshot(kept.organization.id)).toEqual(keptBefore);
  });

  it("has no trigger on audit_events or support_actions, nor the functions the old ones ran", async () => {
    const triggers = await pool().query(
      `SELECT tgrelid::regclass::text AS "table", tgname FROM pg_trigger
        WHERE tgrelid IN ('audit_events'::regclass, 'support_actions'::regclass) AND NOT tgisinternal`,
    );
    expect(triggers.rows).toEqual([]);
    const functions = await pool().query(
      `SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND prorettype = 'trigger'::regtype`,
    );
    expect(functions.rows).toEqual([]);
  });

  it("holds exactly SELECT and INSERT on the append-only tables, and only counts up a day's rollup", async () => {
    const { rows } = await pool().query<{ table: string; privileges: string[] }>(
      `SELECT t AS "table", ARRAY(SELECT p FROM unnest(ARRAY['SELECT','INSERT','UPDATE','DELETE','TRUNCATE','REFERENCES','TRIGGER']) AS p
                                   WHERE has_table_privilege($1, t, p) ORDER BY p) AS privileges
         FROM unnest(ARRAY['audit_events','support_actions','audit_event_days','audit_event_actors','audit_event_users']) AS t`,
      [APP_ROLE],
    );
    expect(Object.fromEntries(rows.map((r) => [r.table, r.privileges]))).toEqual({
      audit_events: ["INSERT", "SELECT"],
      support_actions: ["INSERT", "SELECT"],
      audit_event_days: ["INSERT", "SELECT"],
      audit_event_actors: ["INSERT", "SELECT"],
      audit_event_users: ["INSERT", "SELECT"],
    });
    const columns = await pool().query(
      `SELECT attname FROM pg_attribute WHERE attrelid = 'audit_event_days'::regclass AND attnum > 0
          AND has_column_privilege($1, 'audit_event_days'::regclass, attnum, 'UPDATE')`,
      [APP_ROLE],
    );
    expect(columns.rows).toEqual([{ attname: "events" }]);
    // The job queue's tables (made by graphile-worker's own migrations, after this one's grants).
    const queue = await pool().query<{ ok: boolean }>(
      `SELECT bool_and(has_table_privilege($1, c.oid, 'SELECT') AND has_table_privilege($1, c.oid, 'INSERT')
                   AND has_table_privilege($1, c.oid, 'UPDATE') AND has_table_privilege($1, c.oid, 'DELETE')) AS ok
         FROM pg_class c WHERE c.relnamespace = 'graphile_worker'::regnamespace AND c.relkind = 'r'`,
      [APP_ROLE],
    );
    expect(queue.rows).toEqual([{ ok: true }]);
    // Every other table, the ones later migrations add included (default privileges of the login
    // that runs the migrations): the app reads and writes them all.
    const others = await pool().query<{ table: string }>(
      `SELECT c.relname::text AS "table" FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
          AND c.relname <> ALL(ARRAY['audit_events','support_actions','audit_event_days','audit_event_actors','audit_event_users','audit_digests','_prisma_migrations'])
          AND NOT (has_table_privilege($1, c.oid, 'SELECT') AND has_table_privilege($1, c.oid, 'INSERT')
                   AND has_table_privilege($1, c.oid, 'UPDATE') AND has_table_privilege($1, c.oid, 'DELETE'))`,
      [APP_ROLE],
    );
    expect(others.rows).toEqual([]);
    // The audit log's digests (decision 0061): written once, read, never changed by the app.
    const digests = await pool().query(
      `SELECT p.privilege, has_table_privilege($1, 'audit_digests', p.privilege) AS granted
         FROM unnest(ARRAY['SELECT','INSERT','UPDATE','DELETE','TRUNCATE']) AS p(privilege)`,
      [APP_ROLE],
    );
    expect(digests.rows).toEqual(
      ["SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE"].map((privilege, i) => ({ privilege, granted: i < 2 })),
    );
    // The migrations' bookkeeping: read (the readiness check), never written.
    expect(await refusal(pool().query(`DELETE FROM "_prisma_migrations" WHERE migration_name = $1`, [randomUUID()]))).toBe("42501");
  });
});

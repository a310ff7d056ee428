// The built server killed (SIGKILL) while it writes a digest: the moment is exact, not timed. The
// database's owner holds an uncommitted digest 1 of the organization, so the server's INSERT of
// its digest 1 waits; the test sees it waiting (pg_locks), kills the server, lets the
// orphaned statement end, and starts a new server: the chain has no gap, holds every event once,
// and verifies intact.
import { v7 as uuidv7 } from "uuid";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { verifyAuditLog } from "~/audit-integrity/verify.server";
import { pool } from "~/db.server";
import { digestsOf, expectWholeChain, sealedIds } from "../audit-integrity";
import { recordChanges } from "../audit-streams";
import { createOrganizationWith, createUser } from "../factories";
import { startProductionServer, type ProductionServer } from "./production-server";
import { eventually } from "../eventually";

const servers: ProductionServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
});

/** Statements waiting for the transaction `xid` (pg_locks: visible to every role, unlike pg_stat_activity's queries). */
async function waitingFor(xid: string): Promise<number> {
  const { rows } = await pool().query<{ count: number }>(
    "SELECT count(*)::int AS count FROM pg_locks WHERE NOT granted AND locktype = 'transactionid' AND transactionid = $1::xid",
    [xid],
  );
  return rows[0]!.count;
}

describe("the built server killed mid-seal", () => {
  it("leaves no gap: after a restart the chain is whole, every event sealed once, intact", { timeout: 150_000 }, async () => {
    const user = await createUser();
    const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const first = await recordChanges(organization.id, user.id, 3);
    const blocker = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await blocker.connect();
    await blocker.query("BEGIN");
    await blocker.query(
      `INSERT INTO audit_digests (organization_id, sequence, period_end, last_transaction_id, last_event_id, horizon,
                                  event_count, key_id, document, signature, entries)
       VALUES ($1, 1, now(), '0', $2, '0', 0, 'x', 'x', '\\x', '\\x')`,
      [organization.id, uuidv7()],
    );
    const { rows } = await blocker.query<{ xid: string }>(
      "SELECT backend_xid::text AS xid FROM pg_stat_activity WHERE pid = pg_backend_pid()",
    );
    const xid = rows[0]!.xid;
    const doomed = await startProductionServer(process.env.DATABASE_URL!, { AUDIT_DIGEST_INTERVAL: "1" });
    servers.push(doomed);
    await eventually(async () => (await waitingFor(xid)) > 0, "the server's digest INSERT to wait");
    const exited = new Promise((resolve) => doomed.child.once("exit", resolve));
    doomed.child.kill("SIGKILL");
    await exited;
    await blocker.query("ROLLBACK");
    await blocker.end();
    // The orphaned INSERT now ends one way or the other (a whole digest 1, or none): either way the
    // next server continues from the tip it finds, and a racing INSERT of the same sequence does nothing.

    const later = await recordChanges(organization.id, user.id, 2);
    const server = await startProductionServer(process.env.DATABASE_URL!, { AUDIT_DIGEST_INTERVAL: "1" });
    servers.push(server);
    await eventually(async () => sealedIds(await digestsOf(organization.id)).length === 5, "all five events sealed");
    const digests = await digestsOf(organization.id);
    expectWholeChain(digests);
    expect(sealedIds(digests)).toEqual([...first, ...later]);
    expect(await verifyAuditLog(organization.id)).toMatchObject({ status: "intact", eventsChecked: 5, findings: [] });
    await server.stop();
  });
});

// The database going away in the middle of issue 34's work: the app reaches its database through a
// relay this file cuts (tests/database-proxy.ts). The moment is made exact, not timed: the
// database's owner holds a lock the writer or the verifier must wait for, the test sees it waiting
// (pg_stat_activity), then cuts. A digest is one INSERT, so none is ever half written; after the
// database is back the chain continues without a gap and verifies intact; a verification cut short
// is a 503 (translated) or the command's clear line, and the one-at-a-time lock goes with it.
import { execFile } from "node:child_process";
import { join } from "node:path";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealOrganization } from "~/audit-integrity/seal.server";
import { currentSigningKey } from "~/audit-integrity/signing-keys";
import { verifyAuditLog } from "~/audit-integrity/verify.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { pool } from "~/db.server";
import { callRpc, memberOfNewOrganization } from "../api-key-factories";
import { recordChanges } from "../audit-streams";
import { startInProcessServer } from "../app-server";
import { startDatabaseProxy } from "../database-proxy";

// Before anything reads the configuration: the app's connections go through the relay.
const directUrl = process.env.DATABASE_URL!;
const database = await startDatabaseProxy(directUrl);
process.env.DATABASE_URL = database.url;

let watcher: pg.Client;

beforeAll(async () => {
  watcher = new pg.Client({ connectionString: directUrl });
  await watcher.connect();
});

afterAll(async () => {
  await watcher?.end();
  await database.close();
});

/** A connection of the database's owner, straight to the database (not through the relay). */
async function ownerClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: directUrl });
  await client.connect();
  return client;
}

/** Waits until some other backend waits for a lock in a statement matching `pattern` (ILIKE). */
async function waitForLockWait(pattern: string): Promise<void> {
  for (;;) {
    const { rows } = await watcher.query(
      "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE $1 AND pid <> pg_backend_pid()",
      [pattern],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until no backend runs a statement matching `pattern`: a backend whose client is gone has finished. */
async function waitForNoBackend(pattern: string): Promise<void> {
  for (;;) {
    const { rows } = await watcher.query(
      "SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query ILIKE $1 AND pid <> pg_backend_pid()",
      [pattern],
    );
    if (rows.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function digestSequences(organizationId: string): Promise<number[]> {
  const { rows } = await watcher.query<{ sequence: number }>(
    "SELECT sequence FROM audit_digests WHERE organization_id = $1 ORDER BY sequence",
    [organizationId],
  );
  return rows.map((row) => row.sequence);
}

describe("the database going away mid-seal", () => {
  it("leaves whole digests only, and the next seal continues the chain without a gap: intact", async () => {
    const { organization, user } = await memberOfNewOrganization("owner");
    await recordChanges(organization.id, user.id, 9);
    // An uncommitted digest 2 of the owner's: the writer's INSERT of its digest 2 waits for it.
    const blocker = await ownerClient();
    await blocker.query("BEGIN");
    await blocker.query(
      `INSERT INTO audit_digests (organization_id, sequence, period_end, last_transaction_id, last_event_id, horizon,
                                  event_count, key_id, document, signature, entries)
       VALUES ($1, 2, now(), '0', $2, '0', 0, 'x', 'x', '\\x', '\\x')`,
      [organization.id, uuidv7()],
    );
    const sealing = sealOrganization(organization.id, currentSigningKey()!, { maxEvents: 3 }).then(
      () => null,
      (error: unknown) => error,
    );
    await waitForLockWait("%INSERT INTO audit_digests%");
    await database.cut();
    expect(await sealing).toBeInstanceOf(Error);
    await blocker.query("ROLLBACK");
    await blocker.end();
    // The orphaned backend's INSERT may still commit its digest 2 (whole): let it finish either way.
    await waitForNoBackend("%INSERT INTO audit_digests%");
    await database.restore();
    const written = await digestSequences(organization.id);
    expect(written[0]).toBe(1);
    expect(written.length).toBeLessThanOrEqual(2);

    await sealOrganization(organization.id, currentSigningKey()!, { maxEvents: 3 });
    expect(await digestSequences(organization.id)).toEqual([1, 2, 3]);
    expect(await verifyAuditLog(organization.id)).toMatchObject({ status: "intact", digestsChecked: 3, eventsChecked: 9, findings: [] });
  });
});

describe("the database going away mid-verification", () => {
  it("answers auditLog.verify 503 (translated), and the next verification runs: the lock went with the connection", async () => {
    const { organization, user, token } = await memberOfNewOrganization("owner");
    await recordChanges(organization.id, user.id, 3);
    await sealOrganization(organization.id, currentSigningKey()!);
    const blocker = await ownerClient();
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE audit_digests IN ACCESS EXCLUSIVE MODE");
    const verifying = callRpc("auditLog/verify", {
      sessionToken: token,
      input: { organizationId: organization.id },
      headers: { "accept-language": "de-DE" },
    });
    await waitForLockWait("%audit_digests%");
    await database.cut();
    const answer = await verifying;
    await blocker.query("ROLLBACK");
    await blocker.end();
    expect(answer.status).toBe(503);
    expect(JSON.stringify(answer.json)).toMatch(/Datenbank/);
    await database.restore();
    await pool().query("DELETE FROM rate_limits");
    const again = await callRpc("auditLog/verify", { sessionToken: token, input: { organizationId: organization.id } });
    expect(again).toMatchObject({ status: 200, json: { status: "intact", eventsChecked: 3 } });
  });

  it("answers the integrity page's form 503 with the translated page, and the next verification runs", async () => {
    const { organization, user, token } = await memberOfNewOrganization("owner");
    await recordChanges(organization.id, user.id, 2);
    await sealOrganization(organization.id, currentSigningKey()!);
    const server = await startInProcessServer();
    try {
      const post = () =>
        fetch(`${server.origin}/dashboard/organization-settings/audit-log/integrity`, {
          method: "POST",
          headers: {
            cookie: `${sessionCookieName()}=${token}`,
            "content-type": "application/x-www-form-urlencoded",
            origin: server.origin,
            "sec-fetch-site": "same-origin",
            "accept-language": "de-DE",
          },
          body: "from=&to=",
        });
      const blocker = await ownerClient();
      await blocker.query("BEGIN");
      await blocker.query("LOCK TABLE audit_digests IN ACCESS EXCLUSIVE MODE");
      const posting = post();
      await waitForLockWait("%audit_digests%");
      await database.cut();
      const answer = await posting;
      await blocker.query("ROLLBACK");
      await blocker.end();
      expect(answer.status).toBe(503);
      expect(await answer.text()).toMatch(/Datenbank/);
      await database.restore();
      await pool().query("DELETE FROM rate_limits");
      const again = await post();
      expect(again.status).toBe(200);
      expect(await again.text()).toContain("Unverändert: Das Log stimmt mit seinen Digests überein.");
    } finally {
      await server.close();
    }
  });

  it("ends npm run audit:verify with exit 1 and a line that says the database went away, no stack trace", async () => {
    const { organization, user } = await memberOfNewOrganization("owner");
    await recordChanges(organization.id, user.id, 2);
    await sealOrganization(organization.id, currentSigningKey()!);
    const blocker = await ownerClient();
    await blocker.query("BEGIN");
    await blocker.query("LOCK TABLE audit_digests IN ACCESS EXCLUSIVE MODE");
    const root = join(import.meta.dirname, "..", "..");
    const command = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        join(root, "node_modules", ".bin", "tsx"),
        ["scripts/audit-verify.ts", organization.id],
        { cwd: root, env: { ...process.env, LOG_LEVEL: "silent", DATABASE_URL: database.url } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
    await waitForLockWait("%audit_digests%");
    await database.cut();
    const result = await command;
    await blocker.query("ROLLBACK");
    await blocker.end();
    await database.restore();
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("The database connection was lost during the verification: run it again once the database is back.\n");
  });
});

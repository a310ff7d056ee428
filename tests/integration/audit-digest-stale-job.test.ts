// A digest job left locked by a process that died mid-seal (app/audit-integrity/sealing-lock.server.ts):
// the schedule leaves a job alone while its writer's session lock is held, and queues the
// organization again once it is not, so a crash does not stop its sealing for graphile-worker's
// four hours. The lock is matched in pg_locks for ids whose hash is negative as well as positive.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { queueDueDigests } from "~/audit-integrity/digest-schedule.server";
import { sealOrganization } from "~/audit-integrity/seal.server";
import { SEALING_LOCK_CLASS, whileSealing } from "~/audit-integrity/sealing-lock.server";
import { currentSigningKey } from "~/audit-integrity/signing-keys";
import { pool } from "~/db.server";
import { digestsOf } from "../audit-integrity";
import { recordChanges } from "../audit-streams";
import { createOrganizationWith, createUser } from "../factories";

/** An organization with an event, whose id hashes (hashtext) to the sign asked for. */
async function organizationHashing(negative: boolean): Promise<string> {
  for (;;) {
    const user = await createUser();
    const { id } = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
    const { rows } = await pool().query<{ negative: boolean }>("SELECT hashtext($1) < 0 AS negative", [id]);
    if (rows[0]!.negative !== negative) continue;
    await recordChanges(id, user.id, 1);
    return id;
  }
}

async function jobsOf(organizationId: string) {
  const { rows } = await pool().query<{ key: string | null; locked: boolean }>(
    "SELECT key, locked_at IS NOT NULL AS locked FROM graphile_worker._private_jobs WHERE payload->>'organizationId' = $1 ORDER BY id",
    [organizationId],
  );
  return rows;
}

/** What a worker does when it takes the job: the row locked (by a worker that may then die). */
async function takeJob(organizationId: string) {
  await pool().query("UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'gone', attempts = 1 WHERE key = $1", [
    `audit-digest:${organizationId}`,
  ]);
}

async function holdSealingLock(organizationId: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query("SELECT pg_advisory_lock($1, hashtext($2))", [SEALING_LOCK_CLASS, organizationId]);
  return client;
}

describe("a digest job locked by a process that died", () => {
  for (const negative of [false, true]) {
    it(`is left alone while its writer lives and queued again once it is gone (hash ${negative ? "negative" : "positive"})`, async () => {
      const organizationId = await organizationHashing(negative);
      await queueDueDigests(3600);
      await takeJob(organizationId);
      const writer = await holdSealingLock(organizationId);
      await queueDueDigests(3600);
      expect(await jobsOf(organizationId)).toEqual([{ key: `audit-digest:${organizationId}`, locked: true }]);
      // The process dies: its connection, and the lock with it.
      await writer.end();
      await queueDueDigests(3600);
      expect(await jobsOf(organizationId)).toEqual([
        { key: null, locked: true },
        { key: `audit-digest:${organizationId}`, locked: false },
      ]);
    });
  }

  it("seals nothing while another session holds the organization's sealing lock", async () => {
    const organizationId = await organizationHashing(false);
    const writer = await holdSealingLock(organizationId);
    expect(await whileSealing(organizationId, () => sealOrganization(organizationId, currentSigningKey()!))).toBeNull();
    expect(await digestsOf(organizationId)).toEqual([]);
    await writer.end();
    expect(await whileSealing(organizationId, () => sealOrganization(organizationId, currentSigningKey()!))).toEqual({
      digests: 1,
      events: 1,
    });
  });
});

// Audit stream delivery on real PostgreSQL to a real HTTP receiver on this machine: stream order
// with a transaction held open while later ones commit, many concurrent writers, two runs of one
// stream's job at once, a stream or organization deleted while streaming, "start from now",
// "replay from a date", a plan downgrade, and the pump that queues the jobs
// (docs/decisions/0053-stream-delivery.md).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

process.env.STREAMING_ALLOW_PRIVATE_NETWORKS = "true";

const { prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { deliverStream } = await import("~/audit-streams/delivery/deliver-stream.server");
const { sendBatch } = await import("~/audit-streams/outbound/send-batch.server");
const { pumpOnce, streamsAheadOfDatabase } = await import("~/audit-streams/delivery/pump.server");
const { queueDelivery } = await import("~/audit-streams/delivery/delivery-jobs.server");
const { auditStreamTasks } = await import("~/audit-streams/delivery/tasks.server");
const { BATCH_SIZE } = await import("~/audit-streams/delivery/read-batch.server");
const { signedIn } = await import("../factories");
const { authorizeOrganization } = await import("~/access/organization-access.server");
const service = await import("~/audit-streams/streams.server");
const streams = await import("../audit-streams");
const { enterpriseOrganization, deliverAll, streamOrder } = streams;

let receiver: Awaited<ReturnType<typeof streams.startReceiver>>;
beforeAll(async () => {
  receiver = await streams.startReceiver();
});
afterAll(() => receiver.close());
beforeEach(async () => {
  receiver.reset();
  await prisma.$executeRaw`DELETE FROM graphile_worker._private_jobs`;
});

/** The ids the receiver got for this organization, duplicates dropped by id as a receiver does. */
function receivedOnce(): string[] {
  const seen = new Set<string>();
  return receiver.acceptedIds().filter((id) => !seen.has(id) && seen.add(id));
}

describe("stream order", () => {
  it("delivers the export's columns with names resolved, oldest first, in the documented body", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    const ids = await streams.recordChanges(organization.id, owner.id, 3);
    expect(await deliverAll(organization.id, streamId)).toEqual(["caught-up"]);
    expect(receiver.bodies).toHaveLength(1);
    const body = receiver.bodies[0]!;
    expect(body).toMatchObject({ type: "audit.events", version: 1 });
    expect(body.data.map((event) => event.id)).toEqual(ids);
    expect(Object.keys(body.data[0]!)).toEqual([
      "id",
      "createdAt",
      "action",
      "actorKind",
      "actorId",
      "actorName",
      "targetType",
      "targetId",
      "targetName",
      "details",
    ]);
    expect(body.data[2]).toMatchObject({
      action: "organization.settings_changed",
      actorKind: "user",
      actorId: owner.id,
      actorName: "Olga Owner",
      targetType: "organization",
      targetId: organization.id,
      targetName: organization.name,
      details: { name: { from: "before", to: "n2" } },
    });
    const row = await streams.streamRow(organization.id, streamId);
    expect(row!.cursorEventId).toBe(ids[2]);
    expect(row!.lastDeliveredAt).not.toBeNull();
    // Nothing new: the next run sends nothing.
    expect(await deliverStream(organization.id, streamId)).toBe("caught-up");
    expect(receiver.bodies).toHaveLength(1);
  });

  it("sends nothing past a transaction still open until it commits, then everything in stream order, none missing", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    const before = await streams.recordChanges(organization.id, owner.id, 2);
    const held = await streams.openTransactionWithEvent(organization.id, owner.id);
    const after = await streams.recordChanges(organization.id, owner.id, 3);

    await deliverAll(organization.id, streamId);
    // The later transactions committed, but the held one could still add an event before them.
    expect(receivedOnce()).toEqual(before);

    await held.commit();
    await deliverAll(organization.id, streamId);
    expect(receivedOnce()).toEqual([...before, held.eventId, ...after]);
    expect(receivedOnce()).toEqual(await streamOrder(organization.id));
  });

  it("delivers every event of many concurrent writers, in stream order, duplicates only with the same id", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    const writers = Array.from({ length: 6 }, (_, writer) =>
      (async () => {
        for (let i = 0; i < 15; i++) {
          await prisma.$transaction(async (tx) => {
            // The transaction id first, then a random wait: the writers commit in another order
            // than their ids (the event itself, recorded last, holds its action's day count briefly).
            await tx.$queryRaw`SELECT pg_current_xact_id()::text`;
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
            await streams.recordChange(tx, organization.id, owner.id, `w${writer}-${i}`, writer % 2 ? "renamed" : "created");
          });
        }
      })(),
    );
    // Deliver while they write: each run takes what is below the horizon at that moment.
    let writing = true;
    const all = Promise.all(writers).finally(() => (writing = false));
    while (writing) {
      await deliverStream(organization.id, streamId);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await all;
    await deliverAll(organization.id, streamId);
    const expected = await streamOrder(organization.id);
    expect(expected).toHaveLength(90);
    expect(receivedOnce()).toEqual(expected);
  });

  it("two runs of one stream's job at once: one holds the lease, the other stands aside, nothing skipped", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await streams.recordChanges(organization.id, owner.id, BATCH_SIZE + 20);
    const seen = new Set<string>();
    for (let round = 0; round < 10; round++) {
      const outcomes = await Promise.all([deliverStream(organization.id, streamId), deliverStream(organization.id, streamId)]);
      outcomes.forEach((outcome) => seen.add(outcome));
      if (outcomes.includes("caught-up")) break;
    }
    // The runs overlapped at least once, and the second stood aside rather than send beside the first.
    expect(seen.has("busy")).toBe(true);
    expect(receivedOnce()).toEqual(await streamOrder(organization.id));
    // Any event sent twice came again under its own id, for the receiver to drop.
    expect(receiver.acceptedIds().length).toBeGreaterThanOrEqual(BATCH_SIZE + 20);
  });

  it("passes over the log's first events read in batches of at most 500", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await streams.recordChanges(organization.id, owner.id, BATCH_SIZE + 1);
    // Counted as the job hands them over: a batch can go as several requests (the byte cap).
    const batchSizes: number[] = [];
    const counting = ((destination, batch) => {
      batchSizes.push(batch.events.length);
      return sendBatch(destination, batch);
    }) satisfies Parameters<typeof deliverStream>[2];
    expect(await deliverStream(organization.id, streamId, counting)).toBe("caught-up");
    expect(batchSizes).toEqual([BATCH_SIZE, 1]);
    expect(receivedOnce()).toEqual(await streamOrder(organization.id));
  });
});

describe("where a stream starts", () => {
  it("start from now: only events written after the start are sent", async () => {
    const { owner, organization } = await enterpriseOrganization();
    await streams.recordChanges(organization.id, owner.id, 3);
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    // "Start from now" as the service writes it: the cursor at the horizon, before any later event.
    await prisma.$executeRaw`UPDATE audit_streams SET cursor_transaction_id = pg_snapshot_xmin(pg_current_snapshot())
      WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
    const later = await streams.recordChanges(organization.id, owner.id, 2);
    await deliverAll(organization.id, streamId);
    expect(receivedOnce()).toEqual(later);
  });

  it("replay from a date: events created before it are passed over, not sent; the cursor moves past them", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const old = await streams.recordChanges(organization.id, owner.id, 3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const from = new Date();
    const recent = await streams.recordChanges(organization.id, owner.id, 2);
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await prisma.$executeRaw`UPDATE audit_streams SET deliver_from = ${from}
      WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
    await deliverAll(organization.id, streamId);
    expect(receivedOnce()).toEqual(recent);
    expect(receivedOnce()).not.toContain(old[0]);
  });

  it("a stream whose events all lie before its date moves its cursor and sends nothing", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const old = await streams.recordChanges(organization.id, owner.id, 2);
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await prisma.$executeRaw`UPDATE audit_streams SET deliver_from = now() + interval '1 day'
      WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
    expect(await deliverAll(organization.id, streamId)).toEqual(["caught-up"]);
    expect(receiver.bodies).toHaveLength(0);
    const row = await streams.streamRow(organization.id, streamId);
    expect(row!.cursorEventId).toBe(old[1]);
    expect(row!.lastDeliveredAt).toBeNull();
  });
});

describe("streams made through the service", () => {
  it("start from now sends what is written after it (its own audit event first); replay from today sends the day's log", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const access = await authorizeOrganization((await signedIn(owner.id, organization.id)).auth, organization.id, "auditStream:manage");
    const earlier = await streams.recordChanges(organization.id, owner.id, 2);
    const fromNow = await service.createStream(access, { name: "now", kind: "webhook", url: receiver.url, start: { from: "now" } });
    const today = new Date().toISOString().slice(0, 10);
    const replay = await service.createStream(access, {
      name: "replay",
      kind: "webhook",
      url: receiver.url,
      start: { from: "date", date: today },
    });
    const later = await streams.recordChanges(organization.id, owner.id, 1);
    const log = await streamOrder(organization.id);

    await deliverAll(organization.id, fromNow.stream.id);
    expect(receivedOnce()).toEqual(log.slice(log.indexOf(earlier[1]!) + 1));
    expect(receivedOnce()).toContain(later[0]);
    receiver.reset();
    await deliverAll(organization.id, replay.stream.id);
    expect(receivedOnce()).toEqual(log);
  });

  it("a restart from now while a batch is in flight: the run stops, and the stream goes on from the new start", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const access = await authorizeOrganization((await signedIn(owner.id, organization.id)).auth, organization.id, "auditStream:manage");
    const { stream } = await service.createStream(access, { name: "s", kind: "webhook", url: receiver.url, start: { from: "now" } });
    await streams.recordChanges(organization.id, owner.id, 2);
    const restarting = (async (destination, batch) => {
      await service.updateStream(access, stream.id, { version: stream.version, start: { from: "now" } });
      return sendBatch(destination, batch);
    }) satisfies Parameters<typeof deliverStream>[2];
    expect(await deliverStream(organization.id, stream.id, restarting)).toBe("overtaken");
    const after = await streams.recordChanges(organization.id, owner.id, 1);
    receiver.reset();
    await deliverAll(organization.id, stream.id);
    // The restart's own audit event, then what came after it.
    expect(receivedOnce().at(-1)).toBe(after[0]);
    expect(receivedOnce()).toHaveLength(2);
  });
});

describe("after a logical restore", () => {
  it("cursors ahead of the database's transaction ids are found, and the README's repair delivers every event again", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const access = await authorizeOrganization((await signedIn(owner.id, organization.id)).auth, organization.id, "auditStream:manage");
    const { stream } = await service.createStream(access, { name: "restored", kind: "webhook", url: receiver.url, start: { from: "now" } });
    const before = await streams.recordChanges(organization.id, owner.id, 3);
    await deliverAll(organization.id, stream.id);
    const aheadBefore = await streamsAheadOfDatabase();
    // A pg_dump restored into a new server: the rows keep the old server's transaction ids, far
    // above what this one gives out (as the owner: the app may not change the log).
    const owner_ = (text: string) => queryOnce(process.env.DATABASE_URL!, text, [organization.id]);
    await owner_(`UPDATE audit_events SET transaction_id = (pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1000000)::text::xid8
                   WHERE organization_id = $1`);
    await owner_(`UPDATE audit_streams SET cursor_transaction_id = (SELECT max(transaction_id) FROM audit_events WHERE organization_id = $1)
                   WHERE organization_id = $1`);
    expect(await streamsAheadOfDatabase()).toBe(aheadBefore + 1);
    const after = await streams.recordChanges(organization.id, owner.id, 1);
    receiver.reset();
    await deliverAll(organization.id, stream.id);
    expect(receivedOnce()).toEqual([]);
    // The repair: forget the restored ids, then replay from the dump's day (receivers drop what they have by id).
    await owner_(`UPDATE audit_events SET transaction_id = NULL WHERE organization_id = $1 AND transaction_id IS NOT NULL`);
    const current = await service.getStream(access, stream.id);
    await service.updateStream(access, stream.id, {
      version: current.version,
      start: { from: "date", date: new Date().toISOString().slice(0, 10) },
    });
    await deliverAll(organization.id, stream.id);
    expect(receivedOnce()).toEqual(expect.arrayContaining([...before, after[0]!]));
    expect(await streamsAheadOfDatabase()).toBe(aheadBefore);
  });
});

describe("when delivery stops", () => {
  it("a stream deleted mid-delivery: the run ends quietly after the batch in flight", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await streams.recordChanges(organization.id, owner.id, 2);
    const deleting = (async (destination, batch) => {
      await prisma.$executeRaw`DELETE FROM audit_streams WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
      return sendBatch(destination, batch);
    }) satisfies Parameters<typeof deliverStream>[2];
    expect(await deliverStream(organization.id, streamId, deleting)).toBe("overtaken");
    expect(await deliverStream(organization.id, streamId)).toBe("gone");
  });

  it("an organization deleted while streaming: the run ends quietly, the job completes", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await streams.recordChanges(organization.id, owner.id, 2);
    const deleting = (async (destination, batch) => {
      await queryOnce(process.env.DATABASE_URL!, `DELETE FROM organizations WHERE id = $1`, [organization.id]);
      return sendBatch(destination, batch);
    }) satisfies Parameters<typeof deliverStream>[2];
    expect(await deliverStream(organization.id, streamId, deleting)).toBe("overtaken");
    // A job queued before the deletion runs, finds nothing, and is done (not retried).
    await prisma.$executeRaw`SELECT graphile_worker.add_job('audit-stream-delivery', json_build_object('organizationId', ${organization.id}::text, 'streamId', ${streamId}::text))`;
    await runDueJobs(auditStreamTasks);
    const [left] = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs`;
    expect(left!.n).toBe(0);
  });

  it("plan downgraded: nothing is delivered and the cursor is kept; after the upgrade delivery resumes from it", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    const first = await streams.recordChanges(organization.id, owner.id, 2);
    await deliverAll(organization.id, streamId);
    await prisma.organization.update({ where: { id: organization.id }, data: { planId: "pro" } });
    const meanwhile = await streams.recordChanges(organization.id, owner.id, 2);
    expect(await deliverStream(organization.id, streamId)).toBe("blocked");
    expect(await pumpOnce()).toBe(0);
    expect((await streams.streamRow(organization.id, streamId))!.cursorEventId).toBe(first[1]);

    await prisma.organization.update({ where: { id: organization.id }, data: { billingState: "canceled", planId: "enterprise" } });
    expect(await deliverStream(organization.id, streamId)).toBe("blocked");

    await prisma.organization.update({ where: { id: organization.id }, data: { billingState: "active" } });
    await deliverAll(organization.id, streamId);
    expect(receivedOnce()).toEqual([...first, ...meanwhile]);
  });
});

describe("the pump", () => {
  it("queues one job per due stream (one job key per stream), none while one waits, and the job delivers", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    const idle = await streams.createWebhookStream(organization.id, receiver.url, "idle");
    await prisma.$executeRaw`UPDATE audit_streams SET paused = true WHERE organization_id = ${organization.id}::uuid AND id = ${idle}::uuid`;
    const ids = await streams.recordChanges(organization.id, owner.id, 3);

    expect(await pumpOnce()).toBe(1);
    expect(await pumpOnce()).toBe(0);
    const jobs = await prisma.$queryRaw<{ key: string }[]>`SELECT key FROM graphile_worker.jobs`;
    expect(jobs).toEqual([{ key: `audit-stream:${streamId}` }]);

    await runDueJobs(auditStreamTasks);
    expect(receivedOnce()).toEqual(ids);
    // Caught up: nothing is due.
    expect(await pumpOnce()).toBe(0);
  });

  it("leaves a stream alone while a live run holds its lease, and takes it up again once a dead run's lease ends", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    const ids = await streams.recordChanges(organization.id, owner.id, 3);
    // A run in another process holds the stream: its lease is live and its job is locked.
    await prisma.$executeRaw`UPDATE audit_streams SET delivery_lease = gen_random_uuid(), delivery_lease_until = now() + interval '30 seconds'
      WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
    // (As the owner: the app's role may add jobs but not lock them by hand.)
    await queryOnce(
      process.env.DATABASE_URL!,
      `SELECT graphile_worker.add_job('audit-stream-delivery', json_build_object('organizationId', $1::text, 'streamId', $2::text), job_key => $3)`,
      [organization.id, streamId, `audit-stream:${streamId}`],
    );
    await queryOnce(
      process.env.DATABASE_URL!,
      `UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'a worker that died' WHERE key = $1`,
      [`audit-stream:${streamId}`],
    );
    expect(await pumpOnce()).toBe(0);
    expect(await deliverStream(organization.id, streamId)).toBe("busy");
    expect(receivedOnce()).toEqual([]);
    // That process was killed: nobody renews the lease, which ends; graphile-worker would keep its
    // job locked for hours, but the stream is due again and a new job takes it from the cursor.
    await prisma.$executeRaw`UPDATE audit_streams SET delivery_lease_until = now() - interval '1 second'
      WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
    expect(await pumpOnce()).toBe(1);
    await runDueJobs(auditStreamTasks);
    expect(receivedOnce()).toEqual(ids);
    // The run gave its lease back when it ended.
    const [row] = await prisma.$queryRaw<{ lease: string | null }[]>`SELECT delivery_lease::text AS lease FROM audit_streams
      WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
    expect(row?.lease).toBeNull();
  });

  it("a run that reaches its bound with events left queues the next run, which delivers the rest", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await streams.recordChanges(organization.id, owner.id, BATCH_SIZE + 3);
    expect(await deliverStream(organization.id, streamId, sendBatch, { batches: 1, ms: 60_000 })).toBe("more");
    expect(receiver.acceptedIds()).toHaveLength(BATCH_SIZE);
    await queueDelivery(organization.id, streamId);
    const jobs = await prisma.$queryRaw<{ key: string }[]>`SELECT key FROM graphile_worker.jobs`;
    expect(jobs).toEqual([{ key: `audit-stream:${streamId}` }]);
    await runDueJobs(auditStreamTasks);
    expect(receivedOnce()).toEqual(await streamOrder(organization.id));
    expect(receiver.acceptedIds()).toHaveLength(BATCH_SIZE + 3);
  });

  it("waits for a stream's retry pause before queueing it again", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await streams.recordChanges(organization.id, owner.id, 1);
    await prisma.$executeRaw`UPDATE audit_streams SET next_attempt_at = now() + interval '1 minute'
      WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
    expect(await pumpOnce()).toBe(0);
    expect(await deliverStream(organization.id, streamId)).toBe("waiting");
    await streams.endRetryPause(organization.id, streamId);
    expect(await pumpOnce()).toBe(1);
  });
});

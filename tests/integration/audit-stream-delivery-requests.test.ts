// The delivery job's batches as the requests a webhook receiver gets, on real PostgreSQL and the
// Standard Webhooks receiver of tests/receivers/: a batch larger than a receiver's body limit
// arrives whole as several requests, the cursor moving only once every request of the batch was
// taken; a retried batch keeps its webhook-ids; a replay from a date sends new ones
// (docs/audit-stream-format.md, "Request size" and "Webhook").
import { afterAll, beforeAll, describe, expect, it } from "vitest";

process.env.STREAMING_ALLOW_PRIVATE_NETWORKS = "true";

const { prisma } = await import("~/db.server");
const { deliverStream } = await import("~/audit-streams/delivery/deliver-stream.server");
const { BATCH_SIZE } = await import("~/audit-streams/delivery/read-batch.server");
const { sendBatch } = await import("~/audit-streams/outbound/send-batch.server");
const { REQUEST_MAX_BYTES } = await import("~/audit-streams/outbound/request-bodies");
const { signedIn } = await import("../factories");
const { authorizeOrganization } = await import("~/access/organization-access.server");
const service = await import("~/audit-streams/streams.server");
const streams = await import("../audit-streams");
const { enterpriseOrganization, deliverAll, streamOrder } = streams;
const { EXPRESS_BODY_LIMIT } = await import("../receivers/batches.ts");
const { startWebhookReceiver } = await import("../receivers/webhook-receiver.ts");

// The secret tests/audit-streams.ts writes into its streams.
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET, { tls: false, bodyLimit: EXPRESS_BODY_LIMIT });
});
afterAll(() => receiver.stop());

/** `count` audited renames to names of 200 characters, the longest the action's details take; their ids in order. */
async function recordLargeChanges(organizationId: string, userId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const label = `${i}-`.padEnd(200, "x");
    ids.push(await prisma.$transaction((tx) => streams.recordChange(tx, organizationId, userId, label)));
  }
  return ids;
}

/** The deliveries since `from`: each request's webhook-id and event ids. */
function deliveriesSince(from: number) {
  return receiver.deliveries.slice(from).map((d) => ({ id: d.id, events: d.payload.data.map((event) => event.id) }));
}

describe("a batch larger than the receiver's body limit", () => {
  it("arrives whole past a receiver refusing bodies over 100 kB: 500 events of large details, in stream order", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, `${receiver.url}/hook`);
    const ids = await recordLargeChanges(organization.id, owner.id, BATCH_SIZE);
    const from = receiver.deliveries.length;
    const requestsBefore = receiver.requests.length;
    expect(await deliverAll(organization.id, streamId)).toEqual(["caught-up"]);
    expect(deliveriesSince(from).flatMap((d) => d.events)).toEqual(await streamOrder(organization.id));
    const requests = receiver.requests.slice(requestsBefore);
    // About 280 kB in all.
    expect(requests.length).toBeGreaterThan(2);
    for (const request of requests) expect(request.body.length).toBeLessThanOrEqual(REQUEST_MAX_BYTES);
    expect((await streams.streamRow(organization.id, streamId))!.cursorEventId).toBe(ids.at(-1));
  });

  it("one refused request fails the batch and keeps the cursor; the retry sends the same webhook-ids and the rest", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, `${receiver.url}/hook`);
    const ids = await recordLargeChanges(organization.id, owner.id, 300);
    let answered = 0;
    receiver.answer = () => (++answered === 2 ? { status: 503 } : null);
    const from = receiver.deliveries.length;
    try {
      expect(await deliverStream(organization.id, streamId)).toBe("failed");
    } finally {
      receiver.answer = null;
    }
    const firstAttempt = deliveriesSince(from);
    expect(firstAttempt).toHaveLength(1);
    const row = await streams.streamRow(organization.id, streamId);
    expect(row!.cursorEventId).toBe("00000000-0000-0000-0000-000000000000");
    expect(row!.consecutiveFailures).toBe(1);

    await streams.endRetryPause(organization.id, streamId);
    expect(await deliverAll(organization.id, streamId)).toEqual(["caught-up"]);
    const retry = deliveriesSince(from + 1);
    expect(retry[0]).toEqual(firstAttempt[0]);
    expect(retry.flatMap((d) => d.events)).toEqual(await streamOrder(organization.id));
    expect((await streams.streamRow(organization.id, streamId))!.cursorEventId).toBe(ids.at(-1));
  });
  it("renews the stream's lease while the batch's requests are out, which together can outlast it", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const streamId = await streams.createWebhookStream(organization.id, `${receiver.url}/hook`);
    await recordLargeChanges(organization.id, owner.id, 2);
    const leaseUntil = async () => {
      const [row] = await prisma.$queryRaw<{ until: Date }[]>`SELECT delivery_lease_until AS until FROM audit_streams
        WHERE organization_id = ${organization.id}::uuid AND id = ${streamId}::uuid`;
      return row!.until.getTime();
    };
    let renewed = false;
    // A receiver slow enough for a renewal to come while the batch is out (every 10 ms here).
    const slow = (async (destination, batch) => {
      const before = await leaseUntil();
      for (let tries = 0; tries < 200 && !renewed; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        renewed = (await leaseUntil()) > before;
      }
      return sendBatch(destination, batch);
    }) satisfies Parameters<typeof deliverStream>[2];
    expect(await deliverStream(organization.id, streamId, slow, { batches: 40, ms: 60_000, renewMs: 10 })).toBe("caught-up");
    expect(renewed).toBe(true);
  });
});

describe("webhook-ids across a replay", () => {
  it("a replay from a date sends the same events again under new webhook-ids", async () => {
    const { owner, organization } = await enterpriseOrganization();
    const access = await authorizeOrganization((await signedIn(owner.id, organization.id)).auth, organization.id, "auditStream:manage");
    const today = new Date().toISOString().slice(0, 10);
    const { stream } = await service.createStream(access, {
      name: "replayed",
      kind: "webhook",
      url: `${receiver.url}/hook`,
      secret: SECRET,
      start: { from: "date", date: today },
    });
    // Enough bytes for several requests: the replay's first requests then carry exactly the
    // events the first delivery's did (the restart's own event comes only at the end).
    await recordLargeChanges(organization.id, owner.id, 300);
    const from = receiver.deliveries.length;
    await deliverAll(organization.id, stream.id);
    const first = deliveriesSince(from);

    await service.updateStream(access, stream.id, { version: stream.version, start: { from: "date", date: today } });
    const replayFrom = receiver.deliveries.length;
    await deliverAll(organization.id, stream.id);
    const replay = deliveriesSince(replayFrom);

    const same = replay.filter((r) => first.some((f) => f.events.join() === r.events.join()));
    expect(same.length).toBeGreaterThan(0);
    const firstIds = new Set(first.map((d) => d.id));
    for (const delivery of replay) expect(firstIds.has(delivery.id)).toBe(false);
    expect(replay.flatMap((d) => d.events)).toEqual(await streamOrder(organization.id));
  });
});

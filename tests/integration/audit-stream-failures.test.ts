// A receiver that fails, then recovers, on real PostgreSQL, a real local receiver and a real SMTP
// server: the pauses grow, each failure is listed with the receiver's status (the newest 20
// kept), the stream turns failing after STREAMING_FAILING_AFTER_SECONDS (shortened here) and the
// organization's owners, and only they, are mailed once per run of failures; a delivery ends the
// run and resumes from the cursor with nothing lost, and the next run mails again. The streams'
// figures are read from /metrics (docs/decisions/0053-stream-delivery.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailServer } from "../smtp";

// Before anything reads the configuration.
const mail = await startMailServer();
process.env.SMTP_URL = mail.url;
process.env.STREAMING_ALLOW_PRIVATE_NETWORKS = "true";
process.env.STREAMING_FAILING_AFTER_SECONDS = "1";
process.env.APP_ORIGIN = "https://keys.example.com";
const METRICS_TOKEN = "stream-metrics-token-0123456789";
process.env.METRICS_TOKEN = METRICS_TOKEN;

const { prisma } = await import("~/db.server");
const { runDueJobs } = await import("~/jobs/queue.server");
const { deliverStream } = await import("~/audit-streams/delivery/deliver-stream.server");
const { auditStreamTasks } = await import("~/audit-streams/delivery/tasks.server");
const { FAILURES_KEPT } = await import("~/audit-streams/delivery/record-failure.server");
const { createOrganizationWith, createUser } = await import("../factories");
const { startInProcessServer } = await import("../app-server");
const streams = await import("../audit-streams");

let receiver: Awaited<ReturnType<typeof streams.startReceiver>>;
let server: Awaited<ReturnType<typeof startInProcessServer>>;
beforeAll(async () => {
  receiver = await streams.startReceiver();
  server = await startInProcessServer();
});
afterAll(async () => {
  await receiver.close();
  await server.close();
  await mail.stop();
});

const failuresOf = (organizationId: string, streamId: string) =>
  prisma.$queryRaw<{ failure: string; status: number | null; detail: string; at: Date }[]>`
    SELECT failure, status, detail, at FROM audit_stream_failures
    WHERE organization_id = ${organizationId}::uuid AND stream_id = ${streamId}::uuid ORDER BY at DESC, id DESC`;

/** The pause the stream was given after its latest failure, in milliseconds. */
async function latestPause(organizationId: string, streamId: string): Promise<number> {
  const [row] = await prisma.$queryRaw<{ ms: number }[]>`
    SELECT (EXTRACT(EPOCH FROM s.next_attempt_at - f.at) * 1000)::float8 AS ms
    FROM audit_streams s, LATERAL (SELECT at FROM audit_stream_failures WHERE organization_id = s.organization_id AND stream_id = s.id
                                   ORDER BY at DESC, id DESC LIMIT 1) f
    WHERE s.organization_id = ${organizationId}::uuid AND s.id = ${streamId}::uuid`;
  return row!.ms;
}

/** One more attempt, the retry pause skipped. */
async function attempt(organizationId: string, streamId: string) {
  await streams.endRetryPause(organizationId, streamId);
  return deliverStream(organizationId, streamId);
}

/** Waits (this is no timing assertion) until the stream's run of failures is older than the threshold. */
async function outlastThreshold(organizationId: string, streamId: string): Promise<void> {
  await prisma.$executeRaw`UPDATE audit_streams SET failing_since = failing_since - interval '2 seconds'
    WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid`;
}

async function scrape(): Promise<string> {
  const response = await fetch(`${server.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe("a receiver answering 500, then healthy", () => {
  it("grows the pauses, lists the failures, turns failing, mails the owners once per run, and resumes from the cursor", async () => {
    const [ownerA, ownerB, admin, member] = await Promise.all([
      createUser({ name: "Anna Owner" }),
      createUser({ name: "Bernd Owner" }),
      createUser({ name: "Carla Admin" }),
      createUser({ name: "Dieter Member" }),
    ]);
    const organization = await createOrganizationWith(
      [
        { userId: ownerA.id, role: "owner" },
        { userId: ownerB.id, role: "owner" },
        { userId: admin.id, role: "admin" },
        { userId: member.id, role: "member" },
      ],
      { planId: "enterprise" },
    );
    const streamId = await streams.createWebhookStream(organization.id, receiver.url, "Splunk prod");
    const ids = await streams.recordChanges(organization.id, ownerA.id, 3);
    receiver.answer(500);

    expect(await deliverStream(organization.id, streamId)).toBe("failed");
    const [first] = await failuresOf(organization.id, streamId);
    expect(first).toMatchObject({ failure: "http_status", status: 500 });
    // The pause has not passed: the next run waits, and nothing more is sent.
    expect(await deliverStream(organization.id, streamId)).toBe("waiting");
    expect(receiver.bodies).toHaveLength(1);
    const pauses = [await latestPause(organization.id, streamId)];
    for (let i = 0; i < 3; i++) {
      expect(await attempt(organization.id, streamId)).toBe("failed");
      pauses.push(await latestPause(organization.id, streamId));
    }
    // 1 s, 2 s, 4 s, 8 s, each drawn between half and all of its step.
    [1_000, 2_000, 4_000, 8_000].forEach((step, i) => {
      expect(pauses[i]).toBeGreaterThanOrEqual(step / 2 - 5);
      expect(pauses[i]).toBeLessThanOrEqual(step + 5);
    });
    const row = await streams.streamRow(organization.id, streamId);
    expect(row).toMatchObject({ consecutiveFailures: 4, failingNotifiedAt: null });
    expect(row!.cursorEventId).toBe("00000000-0000-0000-0000-000000000000");
    expect(await runDueJobs(auditStreamTasks)).toBeUndefined();
    expect(mail.messages).toHaveLength(0);

    // Failing for longer than the threshold: the next failure mails the owners, once.
    await outlastThreshold(organization.id, streamId);
    expect(await attempt(organization.id, streamId)).toBe("failed");
    expect(await attempt(organization.id, streamId)).toBe("failed");
    await runDueJobs(auditStreamTasks);
    const [toA] = await mail.waitFor(ownerA.email);
    await mail.waitFor(ownerB.email);
    expect(mail.messages).toHaveLength(2);
    expect(toA!.subject).toBe(
      `Audit stream “Splunk prod” of ${organization.name} is failing / Audit-Stream „Splunk prod“ von ${organization.name} schlägt fehl`,
    );
    expect(toA!.text).toContain("Hello Anna Owner,");
    expect(toA!.text).toContain("Hallo Anna Owner,");
    expect(toA!.text).toContain("The latest attempt failed: the destination answered with HTTP status 500.");
    expect(toA!.text).toContain("Der letzte Versuch schlug fehl: das Ziel antwortete mit HTTP-Status 500.");
    expect(toA!.text).toContain(`https://keys.example.com/dashboard/organization-settings/audit-streams/${streamId}`);
    // The destination by its origin alone: a hook's path can carry a secret.
    expect(toA!.text).toContain(`${new URL(receiver.url).origin}/…`);
    expect(toA!.text).not.toContain(receiver.url);
    expect(mail.messages.flatMap((m) => [m.to].flat().flatMap((to) => to?.value.map((v) => v.address)))).not.toContain(admin.email);

    // More failures: the newest 20 are kept, and no further mail for this run.
    for (let i = 0; i < FAILURES_KEPT; i++) await attempt(organization.id, streamId);
    await runDueJobs(auditStreamTasks);
    expect(mail.messages).toHaveLength(2);
    expect(await failuresOf(organization.id, streamId)).toHaveLength(FAILURES_KEPT);
    let metrics = await scrape();
    expect(metrics).toContain('keyledger_audit_streams{state="failing"} 1');
    expect(metrics).toContain(`keyledger_audit_stream_state{stream="${streamId}",state="failing"} 1`);
    expect(metrics).toContain(`keyledger_audit_stream_state{stream="${streamId}",state="active"} 0`);
    // Nothing was ever accepted: no last success yet.
    expect(metrics).not.toContain(`keyledger_audit_stream_last_success_timestamp_seconds{stream="${streamId}"}`);
    const lag = new RegExp(`keyledger_audit_stream_lag_seconds\\{stream="${streamId}"\\} (\\S+)`).exec(metrics);
    // The oldest undelivered event's age: above 0 while the receiver fails.
    expect(Number(lag?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/keyledger_audit_stream_deliveries_total\{kind="webhook",outcome="http_status"\} [1-9]/);

    // Healthy again: delivery resumes from the cursor, nothing lost, the run ends.
    receiver.answer(200);
    expect(await attempt(organization.id, streamId)).toBe("caught-up");
    expect(receiver.acceptedIds()).toEqual(ids);
    expect(await streams.streamRow(organization.id, streamId)).toMatchObject({
      consecutiveFailures: 0,
      failingSince: null,
      failingNotifiedAt: null,
      nextAttemptAt: null,
      cursorEventId: ids[2],
    });
    metrics = await scrape();
    expect(metrics).toContain('keyledger_audit_streams{state="active"} 1');
    expect(metrics).toContain(`keyledger_audit_stream_state{stream="${streamId}",state="active"} 1`);
    const lastSuccess = new RegExp(`keyledger_audit_stream_last_success_timestamp_seconds\\{stream="${streamId}"\\} (\\S+)`).exec(
      metrics,
    )?.[1];
    expect(Math.abs(Number(lastSuccess) - Date.now() / 1000)).toBeLessThan(600);
    expect(metrics).toContain(`keyledger_audit_stream_lag_seconds{stream="${streamId}"} 0`);
    expect(metrics).toContain('keyledger_audit_stream_events_delivered_total{kind="webhook"} 3');

    // A new run of failures mails again, once.
    const more = await streams.recordChanges(organization.id, ownerA.id, 1);
    receiver.answer(503);
    expect(await deliverStream(organization.id, streamId)).toBe("failed");
    await outlastThreshold(organization.id, streamId);
    expect(await attempt(organization.id, streamId)).toBe("failed");
    await runDueJobs(auditStreamTasks);
    expect(await mail.waitFor(ownerA.email, 2)).toHaveLength(2);
    expect(await mail.waitFor(ownerB.email, 2)).toHaveLength(2);
    expect(mail.messages).toHaveLength(4);
    receiver.answer(200);
    expect(await attempt(organization.id, streamId)).toBe("caught-up");
    expect(receiver.acceptedIds()).toEqual([...ids, ...more]);
  });

  it("sends no mail when the stream recovered or was deleted before the mail job ran", async () => {
    const owner = await createUser();
    const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }], { planId: "enterprise" });
    const streamId = await streams.createWebhookStream(organization.id, receiver.url);
    await streams.recordChanges(organization.id, owner.id, 1);
    receiver.answer(500);
    expect(await deliverStream(organization.id, streamId)).toBe("failed");
    await outlastThreshold(organization.id, streamId);
    expect(await attempt(organization.id, streamId)).toBe("failed");
    receiver.answer(200);
    expect(await attempt(organization.id, streamId)).toBe("caught-up");

    const deleted = await streams.createWebhookStream(organization.id, receiver.url, "deleted");
    receiver.answer(500);
    expect(await deliverStream(organization.id, deleted)).toBe("failed");
    await outlastThreshold(organization.id, deleted);
    expect(await attempt(organization.id, deleted)).toBe("failed");
    await prisma.$executeRaw`DELETE FROM audit_streams WHERE organization_id = ${organization.id}::uuid AND id = ${deleted}::uuid`;

    const before = mail.messages.length;
    await runDueJobs(auditStreamTasks);
    expect(mail.messages).toHaveLength(before);
    const [left] = await prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs`;
    expect(left!.n).toBe(0);
  });
});

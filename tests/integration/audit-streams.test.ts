// The audit streams service (app/audit-streams/streams.server.ts): every change recorded once with
// the right details and never a credential, the version rule under two editors at once, the limit,
// the start positions, the test event, and deletion. Nothing is mocked: the real outbound module
// checks addresses and sends the test event to real receivers on this machine (tests/receivers/),
// whose own signature check says what crossed the wire.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import { checkDestinationAddress, outboundPolicy, sendBatch } from "~/audit-streams/outbound/send-batch.server";
import type { OutboundPolicy } from "~/audit-streams/outbound/send-result";
import * as streams from "~/audit-streams/streams.server";
import { prisma } from "~/db.server";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { failure } from "../failure";
import { trustTestCa } from "../receivers/certificates";
import { startWebhookReceiver, type WebhookReceiver } from "../receivers/webhook-receiver";
import { queryOnce } from "../../scripts/lib/pg-client";

/** The real outbound module under a given policy, as the service takes it. */
const outboundWith = (policy: OutboundPolicy): streams.Outbound => ({
  checkDestinationAddress: (destination) => checkDestinationAddress(destination, policy),
  sendBatch: (destination, batch) => sendBatch(destination, batch, policy),
});
/** The receivers listen on 127.0.0.1: private networks allowed, every other limit the real one. */
const LOOPBACK = outboundWith({ ...outboundPolicy(), allowPrivateNetworks: true });
/** The default, off: loopback, private and metadata addresses and http:// refused. */
const GUARDED = outboundWith({ ...outboundPolicy(), allowPrivateNetworks: false });

const receivers: WebhookReceiver[] = [];
beforeAll(() => trustTestCa());
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
});

/** A Standard Webhooks secret and an HTTPS receiver that verifies deliveries with it. */
async function webhookReceiver() {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const receiver = await startWebhookReceiver(secret);
  receivers.push(receiver);
  return { secret, receiver };
}

async function enterprise(role: "owner" | "admin" = "admin", planId = "enterprise") {
  const user = await createUser({ name: "Stream Admin" });
  const org = await createOrganizationWith([{ userId: user.id, role }], { planId });
  const { auth } = await signedIn(user.id, org.id);
  return { user, org, access: await authorizeOrganization(auth, org.id, "auditStream:manage") };
}

const eventsOf = (organizationId: string) =>
  prisma.auditEvent.findMany({
    where: { organizationId, action: { startsWith: "audit_stream." } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { action: true, targetId: true, details: true },
  });

const webhook = { kind: "webhook" as const, url: "https://siem.example.test/hooks/keyledger?token=query-secret" };
const SPLUNK_TOKEN = "8f2a6c1e-5b4d-4e3f-9a7b-1c2d3e4f5a6b";
const DATADOG_KEY = "0123456789abcdef0123456789abcdef";
const S3_SECRET = "s3-secret-AKIA/very+secret=value";

describe("creating a stream", () => {
  it("generates a Standard Webhooks secret, returns it once, and records the creation without it", async () => {
    const { org, access } = await enterprise();
    const { stream, secret } = await streams.createStream(access, { name: "SIEM", ...webhook });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret!.slice(6), "base64")).toHaveLength(32);
    expect(stream).toMatchObject({ name: "SIEM", kind: "webhook", state: "active", credentialsSet: ["secret"], version: 1 });
    // The label keeps the origin and path, never the query string (which may carry a token).
    expect(stream.destination).toBe("https://siem.example.test/…");
    expect(JSON.stringify(await streams.listStreams(access))).not.toContain(secret!.slice(6));
    expect(JSON.stringify(await streams.getStream(access, stream.id))).not.toContain(secret!.slice(6));
    expect(await eventsOf(org.id)).toEqual([
      {
        action: "audit_stream.created",
        targetId: stream.id,
        details: { name: "SIEM", kind: "webhook", destination: "https://siem.example.test/…", start: "now" },
      },
    ]);
    const stored = await prisma.auditStream.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.id, id: stream.id } } });
    expect(stored.credentials).toEqual({ secret });
    expect(stored.settings).toEqual({ url: webhook.url });
  });

  it("keeps a given webhook secret, and gives no secret back for the other kinds", async () => {
    const { access } = await enterprise();
    const given = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
    expect((await streams.createStream(access, { name: "Hook", ...webhook, secret: given })).secret).toBe(given);
    const splunk = await streams.createStream(access, {
      name: "Splunk",
      kind: "splunk",
      url: "https://splunk.example.test:8088",
      token: SPLUNK_TOKEN,
    });
    const datadog = await streams.createStream(access, { name: "Datadog", kind: "datadog", apiKey: DATADOG_KEY });
    const s3 = await streams.createStream(access, {
      name: "Bucket",
      kind: "s3",
      region: "eu-central-1",
      bucket: "audit-archive",
      prefix: "keyledger/",
      accessKeyId: "AKIAEXAMPLE123",
      secretAccessKey: S3_SECRET,
    });
    expect([splunk.secret, datadog.secret, s3.secret]).toEqual([null, null, null]);
    expect(datadog.stream.destination).toBe("https://http-intake.logs.datadoghq.com");
    expect(s3.stream).toMatchObject({ destination: "s3://audit-archive/keyledger/", credentialsSet: ["accessKeyId", "secretAccessKey"] });
    const everything = JSON.stringify(await streams.listStreams(access));
    for (const value of [SPLUNK_TOKEN, DATADOG_KEY, S3_SECRET, "AKIAEXAMPLE123", given]) expect(everything).not.toContain(value);
  });

  it("starts from now: past every event already committed, so its own creation is the first it delivers", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, { name: "Now", ...webhook });
    const {
      rows: [row],
    } = await queryOnce<{ before: number; after: number }>(
      process.env.DATABASE_URL!,
      `SELECT count(*) FILTER (WHERE (COALESCE(e.transaction_id, '0'::xid8), e.id) <= (s.cursor_transaction_id, s.cursor_event_id))::int AS before,
              count(*) FILTER (WHERE (COALESCE(e.transaction_id, '0'::xid8), e.id) > (s.cursor_transaction_id, s.cursor_event_id))::int AS after
         FROM audit_streams s JOIN audit_events e ON e.organization_id = s.organization_id
        WHERE s.organization_id = $1 AND s.id = $2`,
      [org.id, stream.id],
    );
    expect(row).toEqual({ before: 0, after: 1 });
    expect(stream.deliverFrom).toBeNull();
  });

  it("starts from now without passing over an event whose transaction was still open at that moment", async () => {
    const { org, user, access } = await enterprise();
    const late = randomUUID();
    const writer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await writer.connect();
    try {
      await writer.query("BEGIN");
      await writer.query(
        `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash)
         VALUES ($1, $2::uuid, 'organization.created', 'user', $3, 'organization', $2::text, '{"name":"x","slug":"x"}', 'h')`,
        [late, org.id, user.id],
      );
      const { stream } = await streams.createStream(access, { name: "Now", ...webhook });
      await writer.query("COMMIT");
      const { rows } = await queryOnce<{ id: string }>(
        process.env.DATABASE_URL!,
        `SELECT e.id FROM audit_streams s JOIN audit_events e ON e.organization_id = s.organization_id
          WHERE s.organization_id = $1 AND s.id = $2
            AND (COALESCE(e.transaction_id, '0'::xid8), e.id) > (s.cursor_transaction_id, s.cursor_event_id)`,
        [org.id, stream.id],
      );
      // Committed after the stream's start, yet written by a transaction that began before it:
      // still ahead of the cursor, with the stream's own creation.
      expect(rows.map((r) => r.id)).toContain(late);
      expect(rows).toHaveLength(2);
    } finally {
      await writer.end();
    }
  });

  it("replays from a date: back to the log's beginning, passing over what came before that day", async () => {
    const { access } = await enterprise();
    const { stream } = await streams.createStream(access, { name: "Replay", ...webhook, start: { from: "date", date: "2026-01-15" } });
    expect(stream.deliverFrom).toEqual(new Date("2026-01-15T00:00:00.000Z"));
    expect(stream.lagSeconds).toBeGreaterThanOrEqual(0);
    for (const date of ["2026-02-30", "1999-12-31", "2999-01-01", "15.01.2026"]) {
      const refused = await failure(streams.createStream(access, { name: "Bad", ...webhook, start: { from: "date", date } }));
      expect(refused).toMatchObject({ code: "BAD_REQUEST", messageKey: "auditStreamChange.startDateInvalid" });
    }
  });

  it("gives the lag as the age of the oldest event still to deliver, a replay's day standing for what it passes over", async () => {
    const { org, user, access } = await enterprise();
    const DAY = 24 * 60 * 60;
    // An event written before streaming existed (no transaction id), five days old.
    await queryOnce(
      process.env.DATABASE_URL!,
      `INSERT INTO audit_events (id, organization_id, action, actor_kind, actor_id, target_type, target_id, details, content_hash, created_at, transaction_id)
       VALUES ($1, $2::uuid, 'organization.created', 'user', $3, 'organization', $2::text, '{"name":"x","slug":"x"}', 'h', now() - interval '5 days', NULL)`,
      [randomUUID(), org.id, user.id],
    );
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY * 1000).toISOString().slice(0, 10);
    const now = await streams.createStream(access, { name: "Now", ...webhook });
    const tenDays = await streams.createStream(access, { name: "Ten days", ...webhook, start: { from: "date", date: day(10) } });
    const twoDays = await streams.createStream(access, { name: "Two days", ...webhook, start: { from: "date", date: day(2) } });
    const lag = new Map((await streams.listStreams(access)).map((s) => [s.id, s.lagSeconds!]));
    expect(lag.get(now.stream.id)).toBeLessThan(DAY);
    expect(lag.get(tenDays.stream.id)).toBeGreaterThan(5 * DAY - 60);
    expect(lag.get(tenDays.stream.id)).toBeLessThan(6 * DAY);
    expect(lag.get(twoDays.stream.id)).toBeGreaterThan(2 * DAY - 60);
    expect(lag.get(twoDays.stream.id)).toBeLessThan(3 * DAY);
  });

  it("refuses at save time, with the setting off, every address the outbound policy will not send to, and writes nothing", async () => {
    const { org, access } = await enterprise();
    const refusals: [string, string][] = [
      ["https://10.0.0.1/hook", "auditStream.privateAddress"],
      ["https://127.0.0.1:8443/hook", "auditStream.privateAddress"],
      ["https://169.254.169.254/latest/meta-data/", "auditStream.privateAddress"],
      ["https://[::1]/hook", "auditStream.privateAddress"],
      ["https://localhost/hook", "auditStream.privateAddress"],
      ["http://siem.example.test/hook", "auditStream.httpsRequired"],
    ];
    for (const [url, messageKey] of refusals) {
      const refused = await failure(streams.createStream(access, { name: "Inside", kind: "webhook", url }, GUARDED));
      expect(refused, url).toMatchObject({ code: "BAD_REQUEST", messageKey });
    }
    const splunk = await failure(
      streams.createStream(access, { name: "Inside", kind: "splunk", url: "https://192.168.1.10:8088", token: SPLUNK_TOKEN }, GUARDED),
    );
    expect(splunk).toMatchObject({ code: "BAD_REQUEST", messageKey: "auditStream.privateAddress" });
    // An edit pointing an existing stream inside is refused the same way, and changes nothing.
    const { stream } = await streams.createStream(access, { name: "Outside", ...webhook }, GUARDED);
    const edit = await failure(
      streams.updateStream(access, stream.id, { version: 1, destination: { url: "https://169.254.169.254/" } }, GUARDED),
    );
    expect(edit).toMatchObject({ code: "BAD_REQUEST", messageKey: "auditStream.privateAddress" });
    expect(await prisma.auditStream.findMany({ where: { organizationId: org.id }, select: { settings: true, version: true } })).toEqual([
      { settings: { url: webhook.url }, version: 1 },
    ]);
    expect((await eventsOf(org.id)).map((e) => e.action)).toEqual(["audit_stream.created"]);
  });

  it("refuses the 11th stream of an organization, and writes nothing for it", async () => {
    const { org, access } = await enterprise();
    for (let i = 1; i <= streams.MAX_STREAMS; i++) await streams.createStream(access, { name: `Stream ${i}`, ...webhook });
    const refused = await failure(streams.createStream(access, { name: "One too many", ...webhook }));
    expect(refused).toMatchObject({ code: "CONFLICT", messageKey: "auditStreamChange.limitReached", params: { limit: 10 } });
    expect(await prisma.auditStream.count({ where: { organizationId: org.id } })).toBe(10);
    expect((await eventsOf(org.id)).length).toBe(10);
  });
});

describe("editing a stream", () => {
  it("records a name, a path, other settings and new credentials as one change; a credential left empty is kept", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, {
      name: "Splunk",
      kind: "splunk",
      url: "https://splunk.example.test",
      token: SPLUNK_TOKEN,
    });
    const renamed = await streams.updateStream(access, stream.id, {
      version: 1,
      name: "Splunk EU",
      destination: { url: "https://splunk.example.test/services/collector", index: "audit", token: "" },
    });
    expect(renamed).toMatchObject({
      name: "Splunk EU",
      version: 2,
      settings: { url: "https://splunk.example.test/services/collector", index: "audit" },
    });
    const stored = await prisma.auditStream.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.id, id: stream.id } } });
    expect(stored.credentials).toEqual({ token: SPLUNK_TOKEN });
    await streams.updateStream(access, stream.id, { version: 2, destination: { token: "new-token-1234" } });
    const updates = (await eventsOf(org.id)).filter((e) => e.action === "audit_stream.updated").map((e) => e.details);
    expect(updates).toEqual([
      {
        name: { from: "Splunk", to: "Splunk EU" },
        destination: { from: "https://splunk.example.test", to: "https://splunk.example.test/…" },
        changedSettings: ["index", "url"],
      },
      { credentialsReplaced: true },
    ]);
    expect(JSON.stringify(updates)).not.toContain("new-token-1234");
  });

  it("refuses to send stored credentials to a new Splunk or Datadog origin unless they are entered again (400, nothing written)", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, {
      name: "Splunk",
      kind: "splunk",
      url: "https://splunk.example.test:8088",
      token: SPLUNK_TOKEN,
    });
    const refusal = { code: "BAD_REQUEST", messageKey: "auditStreamChange.credentialsRequired" };
    // Another host, another port, another scheme: each is another receiver for the token.
    for (const url of ["https://attacker.example.test", "https://splunk.example.test:9088", "http://splunk.example.test:8088"])
      for (const token of [undefined, ""])
        expect(await failure(streams.updateStream(access, stream.id, { version: 1, destination: { url, token } }))).toMatchObject(refusal);
    const stored = await prisma.auditStream.findUniqueOrThrow({ where: { organizationId_id: { organizationId: org.id, id: stream.id } } });
    expect(stored).toMatchObject({
      version: 1,
      settings: { url: "https://splunk.example.test:8088" },
      credentials: { token: SPLUNK_TOKEN },
    });
    expect((await eventsOf(org.id)).map((e) => e.action)).toEqual(["audit_stream.created"]);

    // With the token typed again the move goes through (the same token: nothing new stored).
    const moved = await streams.updateStream(access, stream.id, {
      version: 1,
      destination: { url: "https://splunk.eu.example.test", token: SPLUNK_TOKEN },
    });
    expect(moved).toMatchObject({ version: 2, destination: "https://splunk.eu.example.test" });
    expect((await eventsOf(org.id)).at(-1)!.details).toEqual({
      destination: { from: "https://splunk.example.test:8088", to: "https://splunk.eu.example.test" },
      changedSettings: ["url"],
    });

    const { stream: datadog } = await streams.createStream(access, { name: "Datadog", kind: "datadog", apiKey: DATADOG_KEY });
    expect(
      await failure(
        streams.updateStream(access, datadog.id, { version: 1, destination: { url: "https://http-intake.logs.datadoghq.eu" } }),
      ),
    ).toMatchObject(refusal);
    // Another path on the same origin keeps the key.
    expect(
      await streams.updateStream(access, datadog.id, { version: 1, destination: { url: "https://http-intake.logs.datadoghq.com/intake" } }),
    ).toMatchObject({ version: 2, credentialsSet: ["apiKey"] });
  });

  it("refuses a new S3 endpoint, bucket or region unless both keys are entered again; a new prefix keeps them", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, {
      name: "Archive",
      kind: "s3",
      region: "eu-west-1",
      bucket: "audit-archive",
      accessKeyId: "AKIAEXAMPLE123",
      secretAccessKey: S3_SECRET,
    });
    const refusal = { code: "BAD_REQUEST", messageKey: "auditStreamChange.credentialsRequired" };
    for (const moved of [{ endpoint: "https://minio.example.test" }, { bucket: "someone-elses-bucket" }, { region: "us-east-1" }]) {
      expect(await failure(streams.updateStream(access, stream.id, { version: 1, destination: moved }))).toMatchObject(refusal);
      // One key of the two is not enough: the other would still go along.
      expect(
        await failure(streams.updateStream(access, stream.id, { version: 1, destination: { ...moved, accessKeyId: "AKIAOTHER123" } })),
      ).toMatchObject(refusal);
    }
    expect((await eventsOf(org.id)).map((e) => e.action)).toEqual(["audit_stream.created"]);
    expect(await streams.updateStream(access, stream.id, { version: 1, destination: { prefix: "keyledger/" } })).toMatchObject({
      version: 2,
    });
    const rekeyed = await streams.updateStream(access, stream.id, {
      version: 2,
      destination: { bucket: "new-archive", accessKeyId: "AKIANEW12345", secretAccessKey: "new-secret-value" },
    });
    expect(rekeyed).toMatchObject({ version: 3, destination: "s3://new-archive/keyledger/" });
    expect((await eventsOf(org.id)).at(-1)!.details).toMatchObject({ changedSettings: ["bucket"], credentialsReplaced: true });
  });

  it("pauses, resumes and starts again, each recorded; a change that changes nothing records nothing", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, { name: "Hook", ...webhook });
    expect(await streams.updateStream(access, stream.id, { version: 1, paused: true })).toMatchObject({ state: "paused", version: 2 });
    expect(await streams.updateStream(access, stream.id, { version: 2, paused: true })).toMatchObject({ version: 2 });
    expect(await streams.updateStream(access, stream.id, { version: 2, paused: false })).toMatchObject({ state: "active", version: 3 });
    const replay = await streams.updateStream(access, stream.id, { version: 3, start: { from: "date", date: "2026-03-01" } });
    expect(replay.deliverFrom).toEqual(new Date("2026-03-01T00:00:00.000Z"));
    expect((await streams.updateStream(access, stream.id, { version: 4, start: { from: "now" } })).deliverFrom).toBeNull();
    expect((await eventsOf(org.id)).map((e) => [e.action, e.details])).toEqual([
      ["audit_stream.created", expect.objectContaining({ name: "Hook" })],
      ["audit_stream.paused", { name: "Hook" }],
      ["audit_stream.resumed", { name: "Hook" }],
      ["audit_stream.restarted", { name: "Hook", start: "2026-03-01" }],
      ["audit_stream.restarted", { name: "Hook", start: "now" }],
    ]);
  });

  it("refuses a stale version (409) and a change of kind (400), writing nothing", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, { name: "Hook", ...webhook });
    await streams.updateStream(access, stream.id, { version: 1, name: "Hook 2" });
    expect(await failure(streams.updateStream(access, stream.id, { version: 1, name: "Hook 3" }))).toMatchObject({
      code: "CONFLICT",
      messageKey: "auditStreamChange.staleVersion",
    });
    expect(await failure(streams.updateStream(access, stream.id, { version: 2, destination: { kind: "s3" } }))).toMatchObject({
      code: "BAD_REQUEST",
      messageKey: "auditStreamChange.kindFixed",
    });
    expect(
      await failure(streams.updateStream(access, stream.id, { version: 2, destination: { url: "javascript:alert(1)" } })),
    ).toMatchObject({
      code: "BAD_REQUEST",
      messageKey: "auditStream.urlInvalid",
    });
    expect((await streams.getStream(access, stream.id)).name).toBe("Hook 2");
    expect((await eventsOf(org.id)).length).toBe(2);
  });

  it("lets one of two admins editing at once win; the other gets 409 and nothing of theirs is written", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, { name: "Shared", ...webhook });
    const results = await Promise.allSettled([
      streams.updateStream(access, stream.id, { version: 1, name: "Alice's", destination: { url: "https://alice.example.test/h" } }),
      streams.updateStream(access, stream.id, { version: 1, name: "Bob's", destination: { url: "https://bob.example.test/h" } }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: "CONFLICT", messageKey: "auditStreamChange.staleVersion" });
    const winner = (won[0] as PromiseFulfilledResult<streams.StreamView>).value;
    const now = await streams.getStream(access, stream.id);
    expect(now).toMatchObject({ name: winner.name, destination: winner.destination, version: 2 });
    expect((await eventsOf(org.id)).filter((e) => e.action === "audit_stream.updated")).toHaveLength(1);
  });
});

describe("testing and deleting a stream", () => {
  it("sends one synthetic audit.test event, records the outcome, and stores no test event in the log", async () => {
    const { org, user, access } = await enterprise();
    const { secret, receiver } = await webhookReceiver();
    const url = `${receiver.url}/hooks/keyledger?token=query-secret`;
    const { stream } = await streams.createStream(access, { name: "Hook", kind: "webhook", url, secret }, LOOPBACK);
    expect(await streams.testStream(access, stream.id, LOOPBACK)).toEqual({ ok: true, status: 204 });
    // What crossed the wire: one POST to the stored URL, query included, whose signature the
    // receiver verified with the stream's secret; the body names the event, never the secret.
    expect(receiver.refused).toEqual([]);
    expect(receiver.requests.map((r) => [r.method, r.path])).toEqual([["POST", "/hooks/keyledger?token=query-secret"]]);
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.payload).toMatchObject({
      type: "audit.test",
      version: 1,
      data: [
        {
          action: "audit_stream.test",
          actorId: user.id,
          actorName: "Stream Admin",
          targetType: "audit_stream",
          targetId: stream.id,
          targetName: "Hook",
        },
      ],
    });
    expect(receiver.deliveries[0]!.payload.data).toHaveLength(1);
    expect(receiver.requests[0]!.body.toString("utf8")).not.toContain(secret.slice(6));

    receiver.answer = () => ({ status: 503, body: '{"error":"maintenance"}' });
    expect(await streams.testStream(access, stream.id, LOOPBACK)).toEqual({
      ok: false,
      failure: "http_status",
      status: 503,
      detail: "answered 503",
    });
    expect(receiver.requests).toHaveLength(2);
    const tested = (await eventsOf(org.id)).filter((e) => e.action === "audit_stream.tested").map((e) => e.details);
    expect(tested).toEqual([
      { name: "Hook", outcome: "delivered", status: 204 },
      { name: "Hook", outcome: "http_status", status: 503 },
    ]);
    expect(JSON.stringify(await eventsOf(org.id))).not.toContain(secret.slice(6));
    expect(await prisma.auditEvent.count({ where: { organizationId: org.id, action: "audit_stream.test" } })).toBe(0);
  });

  it("records a receiver that cannot be reached as the failure it was, with no status", async () => {
    const { org, access } = await enterprise();
    const { secret, receiver } = await webhookReceiver();
    const { stream } = await streams.createStream(access, { name: "Gone soon", kind: "webhook", url: receiver.url, secret }, LOOPBACK);
    await receiver.stop();
    receivers.splice(receivers.indexOf(receiver), 1);
    expect(await streams.testStream(access, stream.id, LOOPBACK)).toMatchObject({ ok: false, failure: "network", status: null });
    expect((await eventsOf(org.id)).at(-1)).toMatchObject({
      action: "audit_stream.tested",
      details: { name: "Gone soon", outcome: "network" },
    });
  });

  it("deletes a stream with its failures, records its name and kind, and answers 404 after", async () => {
    const { org, access } = await enterprise();
    const { stream } = await streams.createStream(access, { name: "Gone", ...webhook });
    await prisma.auditStreamFailure.create({
      data: { organizationId: org.id, streamId: stream.id, id: randomUUID(), failure: "timeout", detail: "no answer in 10 s" },
    });
    expect((await streams.getStream(access, stream.id)).recentFailures).toMatchObject([{ failure: "timeout", status: null }]);
    await streams.deleteStream(access, stream.id);
    expect(await prisma.auditStreamFailure.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await failure(streams.getStream(access, stream.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure(streams.deleteStream(access, stream.id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await failure(streams.testStream(access, "not-a-uuid"))).toMatchObject({ code: "NOT_FOUND" });
    expect((await eventsOf(org.id)).at(-1)).toEqual({
      action: "audit_stream.deleted",
      targetId: stream.id,
      details: { name: "Gone", kind: "webhook" },
    });
  });

  it("answers 404 for another organization's stream, whatever the call", async () => {
    const mine = await enterprise();
    const theirs = await enterprise();
    const { secret, receiver } = await webhookReceiver();
    const { stream } = await streams.createStream(theirs.access, { name: "Theirs", kind: "webhook", url: receiver.url, secret }, LOOPBACK);
    const calls = [
      () => streams.getStream(mine.access, stream.id),
      () => streams.updateStream(mine.access, stream.id, { version: 1, name: "Mine now" }),
      () => streams.deleteStream(mine.access, stream.id),
      () => streams.testStream(mine.access, stream.id, LOOPBACK),
    ];
    for (const call of calls) {
      expect(await failure(call())).toMatchObject({ code: "NOT_FOUND", messageKey: "auditStreamChange.notFound" });
    }
    expect(await streams.listStreams(mine.access)).toEqual([]);
    expect(receiver.requests).toEqual([]);
  });
});

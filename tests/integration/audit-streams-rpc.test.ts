// auditStream.* at /rpc (docs/contract.md): the answers' shapes, who is refused (members, other
// organizations, plans without streaming, paused billing), the bad input of issue 32 refused with a
// translated 400 that writes nothing, and no credential in any answer, stored detail, log line or
// request sent. Nothing is mocked: the test event goes through the real outbound module to real
// receivers on this machine (tests/receivers/), so this process allows private networks, as a
// server started with STREAMING_ALLOW_PRIVATE_NETWORKS=true does; the refusal with the setting off
// is proven on the production server started without it, at the end.
import { randomBytes } from "node:crypto";
import { captureLogs } from "../captured-logs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCertificates, trustTestCa } from "../receivers/certificates";
import { startDatadogReceiver } from "../receivers/datadog-receiver";
import { startWebhookReceiver, type WebhookReceiver } from "../receivers/webhook-receiver";
import { startProductionServer, type ProductionServer } from "../production/production-server";

// env() reads the environment once, on first use: set before any of the app's modules load.
process.env.STREAMING_ALLOW_PRIVATE_NETWORKS = "true";
const { prisma } = await import("~/db.server");
const { logger } = await import("~/lib/logger.server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { call } = await import("../rpc");
const { exportedRows } = await import("../domain-calls");

const logged = captureLogs(logger);
afterAll(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.stop()));
});

const receivers: { stop(): Promise<void> }[] = [];
beforeAll(() => trustTestCa());

/** An HTTPS Standard Webhooks receiver verifying with `secret` (a fresh one unless given). */
async function webhookReceiver(secret = `whsec_${randomBytes(32).toString("base64")}`): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver(secret);
  receivers.push(receiver);
  return receiver;
}

async function organization(role: "owner" | "admin" | "member" = "owner", planId = "enterprise") {
  const user = await createUser();
  const org = await createOrganizationWith([{ userId: user.id, role }], { planId });
  const { token } = await signedIn(user.id, org.id);
  return { user, org, token };
}

const DE = { "accept-language": "de-DE,de;q=0.9" };
const webhookInput = (organizationId: string, extra: Record<string, unknown> = {}) => ({
  organizationId,
  name: "SIEM",
  kind: "webhook",
  url: "https://siem.example.test/keyledger",
  ...extra,
});

const streamEvents = (organizationId: string) =>
  prisma.auditEvent.findMany({
    where: { organizationId, action: { startsWith: "audit_stream." } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { action: true, details: true },
  });

describe("auditStream procedures", () => {
  it("create answers {stream, secret}; list answers exactly the listed fields; the secret appears nowhere else", async () => {
    const { org, token } = await organization("admin");
    // A receiver that verifies with another secret: the test event arrives and is refused for its signature.
    const stranger = await webhookReceiver();
    const created = await call("auditStream/create", token, webhookInput(org.id, { url: `${stranger.url}/keyledger` }));
    expect(created.status).toBe(200);
    const { stream, secret } = created.json as { stream: Record<string, unknown>; secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect(stream).toMatchObject({ name: "SIEM", kind: "webhook", state: "active", version: 1, credentialsSet: ["secret"] });
    expect(typeof stream.createdAt).toBe("string");
    const listed = await call("auditStream/list", token, { organizationId: org.id });
    expect(listed.json).toEqual([
      {
        id: stream.id,
        name: "SIEM",
        kind: "webhook",
        state: "active",
        createdAt: stream.createdAt,
        lastDeliveredAt: null,
        lagSeconds: expect.any(Number),
      },
    ]);
    const refusedTest = await call("auditStream/test", token, { organizationId: org.id, streamId: stream.id });
    expect(refusedTest.json).toEqual({ ok: false, failure: "http_status", status: 401, detail: "answered 401" });
    expect([stranger.requests.length, stranger.refused.length, stranger.deliveries.length]).toEqual([1, 1, 0]);
    // The customer's receiver, holding the secret the create gave once, verifies the same test event.
    const own = await webhookReceiver(secret);
    const moved = await call("auditStream/update", token, {
      organizationId: org.id,
      streamId: stream.id,
      version: 1,
      url: `${own.url}/keyledger`,
    });
    expect(moved.json).toMatchObject({ version: 2, destination: `${own.url}/…` });
    const tested = await call("auditStream/test", token, { organizationId: org.id, streamId: stream.id });
    expect(tested.json).toEqual({ ok: true, status: 204 });
    expect(own.refused).toEqual([]);
    expect(own.deliveries.map((d) => d.payload)).toMatchObject([
      { type: "audit.test", version: 1, data: [{ action: "audit_stream.test", targetType: "audit_stream", targetId: stream.id }] },
    ]);
    const updated = await call("auditStream/update", token, { organizationId: org.id, streamId: stream.id, version: 2, paused: true });
    expect(updated.json).toMatchObject({ state: "paused", version: 3 });
    const stale = await call("auditStream/update", token, { organizationId: org.id, streamId: stream.id, version: 2, name: "x" }, DE);
    expect(stale).toMatchObject({ status: 409, json: { code: "CONFLICT" } });
    expect(stale.json.message).toContain("Jemand anderes hat dieses Ziel geändert");
    expect((await streamEvents(org.id)).filter((e) => e.action === "audit_stream.tested").map((e) => e.details)).toEqual([
      { name: "SIEM", outcome: "http_status", status: 401 },
      { name: "SIEM", outcome: "delivered", status: 204 },
    ]);
    expect((await call("auditStream/delete", token, { organizationId: org.id, streamId: stream.id })).json).toEqual({});
    const answers = JSON.stringify([listed.json, refusedTest.json, tested.json, moved.json, updated.json, stream]);
    const details = JSON.stringify(await streamEvents(org.id));
    const wire = JSON.stringify([...stranger.requests, ...own.requests].map((r) => [r.path, r.headers, r.body.toString("utf8")]));
    for (const place of [answers, details, wire, logged.join("")]) expect(place).not.toContain(secret.slice(6));
  });

  it("keeps every credential out of answers, details and log lines, through edits and refusals", async () => {
    const { org, token } = await organization();
    const credentials = ["0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210", "S3cret+Access/Key=42", "AKIAEXAMPLE42"];
    // Datadog's intake as a receiver that knows only the replacement key.
    const intake = await startDatadogReceiver(credentials[1]!);
    receivers.push(intake);
    const datadog = await call("auditStream/create", token, {
      organizationId: org.id,
      name: "DD",
      kind: "datadog",
      url: intake.url,
      apiKey: credentials[0],
    });
    const id = (datadog.json.stream as { id: string }).id;
    const before = await call("auditStream/test", token, { organizationId: org.id, streamId: id });
    expect(before.json).toMatchObject({ ok: false, failure: "http_status", status: 403 });
    await call("auditStream/update", token, { organizationId: org.id, streamId: id, version: 1, apiKey: credentials[1], service: "kl" });
    const after = await call("auditStream/test", token, { organizationId: org.id, streamId: id });
    expect(after.json).toEqual({ ok: true, status: 202 });
    // The key crossed the wire in its header alone, and the entry carries the new service name.
    expect(intake.requests.map((r) => r.headers["dd-api-key"])).toEqual([credentials[0], credentials[1]]);
    expect(intake.entries).toMatchObject([{ service: "kl" }]);
    for (const request of intake.requests) for (const value of credentials) expect(request.body.toString("utf8")).not.toContain(value);
    // A refused edit carrying a credential: neither the answer nor the log repeats it.
    const refused = await call("auditStream/update", token, {
      organizationId: org.id,
      streamId: id,
      version: 2,
      apiKey: `${credentials[1]}!`,
    });
    expect(refused.status).toBe(400);
    const s3 = await call("auditStream/create", token, {
      organizationId: org.id,
      name: "Bucket",
      kind: "s3",
      region: "eu-central-1",
      bucket: "audit-archive",
      accessKeyId: credentials[3],
      secretAccessKey: credentials[2],
    });
    const reads = await Promise.all([
      call("auditStream/list", token, { organizationId: org.id }),
      call("auditLog/list", token, { organizationId: org.id }),
    ]);
    const answers = [datadog.json, before.json, after.json, refused.json, s3.json, ...reads.map((r) => r.json)];
    const everything = [JSON.stringify(answers), logged.join("")];
    everything.push(JSON.stringify(await streamEvents(org.id)));
    for (const place of everything) for (const value of credentials) expect(place).not.toContain(value);
    expect((await streamEvents(org.id)).map((e) => e.action)).toEqual([
      "audit_stream.created",
      "audit_stream.tested",
      "audit_stream.updated",
      "audit_stream.tested",
      "audit_stream.created",
    ]);
  });

  it("refuses members (403), other organizations (403) and another organization's streams (404)", async () => {
    const owner = await organization();
    const { stream } = (await call("auditStream/create", owner.token, webhookInput(owner.org.id))).json as { stream: { id: string } };
    const member = await createUser();
    await prisma.membership.create({ data: { organizationId: owner.org.id, userId: member.id, role: "member" } });
    const { token: memberToken } = await signedIn(member.id, owner.org.id);
    for (const [path, input] of [
      ["auditStream/list", { organizationId: owner.org.id }],
      ["auditStream/create", webhookInput(owner.org.id)],
      ["auditStream/delete", { organizationId: owner.org.id, streamId: stream.id }],
    ] as const) {
      expect((await call(path, memberToken, input)).status).toBe(403);
    }
    const stranger = await organization();
    expect((await call("auditStream/list", stranger.token, { organizationId: owner.org.id })).status).toBe(403);
    const elsewhere = await call("auditStream/delete", stranger.token, { organizationId: stranger.org.id, streamId: stream.id });
    expect(elsewhere).toMatchObject({ status: 404, json: { code: "NOT_FOUND" } });
    expect(await prisma.auditStream.count({ where: { organizationId: owner.org.id } })).toBe(1);
  });

  it("refuses changes on a plan without streaming or while billing pauses paid features (403, translated); reads and deletion stay open", async () => {
    const team = await organization("owner", "team");
    const en = await call("auditStream/create", team.token, webhookInput(team.org.id));
    expect(en).toMatchObject({
      status: 403,
      json: { code: "FORBIDDEN", message: "Your organization's plan does not include audit log streaming." },
    });
    const de = await call("auditStream/create", team.token, webhookInput(team.org.id), DE);
    expect(de.json.message).toBe("Der Tarif Ihrer Organisation enthält kein Streaming des Audit-Logs.");
    expect((await call("auditStream/list", team.token, { organizationId: team.org.id })).json).toEqual([]);

    const paused = await organization();
    const { stream } = (await call("auditStream/create", paused.token, webhookInput(paused.org.id))).json as { stream: { id: string } };
    await prisma.organization.update({ where: { id: paused.org.id }, data: { billingState: "canceled" } });
    const refused = await call("auditStream/test", paused.token, { organizationId: paused.org.id, streamId: stream.id });
    expect(refused).toMatchObject({ status: 403, json: { message: expect.stringContaining("billing needs attention") } });
    expect((await call("auditStream/delete", paused.token, { organizationId: paused.org.id, streamId: stream.id })).status).toBe(200);
    expect((await streamEvents(paused.org.id)).map((e) => e.action)).toEqual(["audit_stream.created", "audit_stream.deleted"]);
  });

  it("answers bad input with a translated 400 and writes nothing", async () => {
    const { org, token } = await organization();
    const bad: Record<string, unknown>[] = [
      { url: "not a url" },
      { url: "https://" },
      { url: "javascript:alert(1)" },
      { url: "file:///etc/passwd" },
      { url: "ftp://files.example.test/x" },
      { url: "https://user:pass@siem.example.test/h" },
      { url: `https://siem.example.test/${"a".repeat(3000)}` },
      { kind: "splunk", token: "t".repeat(10_000) },
      { kind: "datadog", apiKey: "k".repeat(10_000) },
      { kind: "ftp" },
      { kind: undefined },
      { secret: "whsec_short" },
      { unexpected: true },
      { name: "Line\u0000break" },
      { name: "Bell\u0007" },
      { name: "" },
      { name: "n".repeat(60 * 1024) },
      { start: { from: "date", date: "2026-13-01" } },
      { start: { from: "yesterday" } },
    ];
    for (const change of bad) {
      for (const headers of [{}, DE]) {
        const answer = await call("auditStream/create", token, webhookInput(org.id, change), headers);
        expect(answer.status, JSON.stringify(change).slice(0, 80)).toBe(400);
        const message = String(answer.json.message);
        expect(message).toBe(
          headers === DE ? "Die Anfrage hat nicht die erwartete Form." : "The request does not have the expected shape.",
        );
        const issues = (answer.json.data as { issues: { message: string }[] }).issues;
        expect(issues.length).toBeGreaterThan(0);
        for (const issue of issues) expect(issue.message).not.toMatch(/^(?:errors:|auditStream)/);
      }
    }
    // A 1 MB name does not reach the procedure: the body limit (64 KiB, docs/contract.md) answers 413.
    const huge = await call("auditStream/create", token, webhookInput(org.id, { name: "n".repeat(1024 * 1024) }), DE);
    expect(huge).toMatchObject({ status: 413 });
    const { stream } = (await call("auditStream/create", token, webhookInput(org.id))).json as { stream: { id: string } };
    for (const change of [
      { url: "javascript:alert(1)" },
      { token: "belongs-to-splunk" },
      { kind: "s3" },
      { version: 0 },
      { name: "x".repeat(101) },
    ]) {
      const answer = await call("auditStream/update", token, { organizationId: org.id, streamId: stream.id, version: 1, ...change }, DE);
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(String(answer.json.message)).not.toMatch(/^(?:errors:|auditStream)/);
    }
    expect(await prisma.auditStream.findMany({ where: { organizationId: org.id }, select: { name: true, version: true } })).toEqual([
      { name: "SIEM", version: 1 },
    ]);
    expect((await streamEvents(org.id)).map((e) => e.action)).toEqual(["audit_stream.created"]);
  });

  it("refuses to move a Splunk token to a new host unless it is entered again: a translated 400, nothing written", async () => {
    const { org, token } = await organization("admin");
    const hecToken = "8f2a6c1e-5b4d-4e3f-9a7b-1c2d3e4f5a6b";
    const created = await call("auditStream/create", token, {
      organizationId: org.id,
      name: "Splunk",
      kind: "splunk",
      url: "https://splunk.example.test:8088",
      token: hecToken,
    });
    const streamId = (created.json.stream as { id: string }).id;
    const move = { organizationId: org.id, streamId, version: 1, url: "https://attacker.example.test" };
    const english = await call("auditStream/update", token, move);
    expect(english).toMatchObject({ status: 400 });
    expect(english.json.message).toBe(
      "The destination's address changed, so enter its credentials again. Stored credentials are never sent to a new address.",
    );
    const german = await call("auditStream/update", token, { ...move, token: "" }, DE);
    expect(german).toMatchObject({ status: 400 });
    expect(german.json.message).toBe(
      "Die Adresse des Ziels hat sich geändert: Geben Sie seine Zugangsdaten erneut ein. Gespeicherte Zugangsdaten werden nie an eine neue Adresse gesendet.",
    );
    const stored = await prisma.auditStream.findFirstOrThrow({
      where: { organizationId: org.id },
      select: { settings: true, version: true },
    });
    expect(stored).toEqual({ settings: { url: "https://splunk.example.test:8088" }, version: 1 });
    expect((await streamEvents(org.id)).map((e) => e.action)).toEqual(["audit_stream.created"]);
    // Typed again, the token goes along.
    const moved = await call("auditStream/update", token, { ...move, token: hecToken });
    expect(moved).toMatchObject({ status: 200, json: { destination: "https://attacker.example.test", version: 2 } });
  });

  it("names a stream in the audit log by its name, and a deleted one by the name its events recorded", async () => {
    const { org, token } = await organization();
    const { stream } = (await call("auditStream/create", token, webhookInput(org.id, { name: "Splunk prod" }))).json as {
      stream: { id: string };
    };
    await call("auditStream/update", token, { organizationId: org.id, streamId: stream.id, version: 1, name: "Splunk production" });
    const names = async () =>
      ((await call("auditLog/list", token, { organizationId: org.id })).json.events as { targetType: string; target: { name: string } }[])
        .filter((e) => e.targetType === "audit_stream")
        .map((e) => e.target.name);
    expect(await names()).toEqual(["Splunk production", "Splunk production"]);
    await call("auditStream/delete", token, { organizationId: org.id, streamId: stream.id });
    // Gone: every event of it is named by the name its deletion recorded.
    expect(await names()).toEqual(["Splunk production", "Splunk production", "Splunk production"]);
  });

  it("names streams in the export as on the page, whichever way the export looks names up", async () => {
    const { org, token, user } = await organization();
    const ids: string[] = [];
    for (const name of ["Kept", "Dropped"]) {
      ids.push(((await call("auditStream/create", token, webhookInput(org.id, { name }))).json.stream as { id: string }).id);
    }
    await call("auditStream/delete", token, { organizationId: org.id, streamId: ids[1] });
    const { auth } = await signedIn(user.id, org.id);
    for (const nameDirectoryLimit of [undefined, 0]) {
      const { rows, namesFrom } = await exportedRows(auth, org.id, { action: undefined }, { nameDirectoryLimit });
      expect(namesFrom).toBe(nameDirectoryLimit === 0 ? "lookups" : "directory");
      const named = rows.filter((row) => row.targetType === "audit_stream").map((row) => [row.targetId, row.targetName]);
      expect(named).toEqual([
        [ids[1], "Dropped"],
        [ids[1], "Dropped"],
        [ids[0], "Kept"],
      ]);
    }
  });

  it("goes with its organization: deleting the organization removes its streams and their failures", async () => {
    const { org, token } = await organization();
    const { stream } = (await call("auditStream/create", token, webhookInput(org.id))).json as { stream: { id: string } };
    await prisma.auditStreamFailure.create({
      data: { organizationId: org.id, streamId: stream.id, id: crypto.randomUUID(), failure: "network", detail: "ECONNREFUSED" },
    });
    const deleted = await call("organization/delete", token, { organizationId: org.id, confirmName: org.name });
    expect(deleted.status).toBe(200);
    expect(await prisma.auditStream.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await prisma.auditStreamFailure.count({ where: { organizationId: org.id } })).toBe(0);
  });
});

describe("auditStream procedures on a server started without STREAMING_ALLOW_PRIVATE_NETWORKS", () => {
  let server: ProductionServer;
  beforeAll(async () => {
    // The production build as deployed, the setting off (this process's own is on, so say so).
    server = await startProductionServer(process.env.DATABASE_URL!, {
      STREAMING_ALLOW_PRIVATE_NETWORKS: "false",
      NODE_EXTRA_CA_CERTS: testCertificates().caPath,
    });
  }, 90_000);
  afterAll(() => server?.stop(), 30_000);

  const create = async (token: string, input: unknown, language: "en" | "de") => {
    const response = await fetch(`${server.origin}/rpc/auditStream/create`, {
      method: "POST",
      headers: {
        Origin: server.origin,
        "Sec-Fetch-Site": "same-origin",
        "Content-Type": "application/json",
        "Accept-Language": language,
        Cookie: `session=${token}`,
      },
      body: JSON.stringify({ json: input }),
    });
    return { status: response.status, json: ((await response.json()) as { json: { code?: string; message?: string } }).json };
  };

  it("refuses a loopback, private or metadata address and http:// with a translated 400, and writes nothing", async () => {
    const { org, token } = await organization();
    // A real receiver listening where the refused address points: nothing may reach it.
    const receiver = await webhookReceiver();
    const PRIVATE = {
      en: "This address leads to a loopback, private, link-local or cloud metadata network, which KeyLedger does not send to.",
      de: "Diese Adresse führt in ein Loopback-, privates, link-lokales oder Cloud-Metadaten-Netz, an das KeyLedger nicht sendet.",
    };
    const HTTPS = { en: "Destinations must use https://.", de: "Ziele müssen https:// verwenden." };
    const refusals: [string, typeof PRIVATE][] = [
      [receiver.url, PRIVATE],
      [`https://localhost:${receiver.port}/hook`, PRIVATE],
      ["https://169.254.169.254/latest/meta-data/", PRIVATE],
      ["https://10.0.0.1/hook", PRIVATE],
      ["http://siem.example.test/hook", HTTPS],
    ];
    for (const [url, message] of refusals) {
      for (const language of ["en", "de"] as const) {
        const answer = await create(token, webhookInput(org.id, { url }), language);
        expect(answer, `${url} ${language}`).toMatchObject({ status: 400, json: { code: "BAD_REQUEST", message: message[language] } });
      }
    }
    expect(receiver.requests).toEqual([]);
    expect(await prisma.auditStream.count({ where: { organizationId: org.id } })).toBe(0);
    expect(await streamEvents(org.id)).toEqual([]);
    // The same server takes a public name (one that does not resolve here passes, docs/decisions).
    expect((await create(token, webhookInput(org.id), "en")).status).toBe(200);
  });
});

// Audit streaming under faults, through the production start (its job worker and pump), to a real
// HTTPS Standard Webhooks receiver that the server trusts through NODE_EXTRA_CA_CERTS (issue 32,
// "Tests with real receivers"): the receiver killed mid-stream and started again on its port, and
// the app killed with SIGKILL while a batch is in flight and started again. Each time, every event
// of the organization arrives, the first arrivals in the stream order, and an event that arrives
// twice is the same event under the same id (at least once, duplicates detectable).
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StreamEvent } from "~/audit-streams/stream-event";
import { prisma } from "~/db.server";
import { recordChanges } from "../audit-streams";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { testCertificates } from "../receivers/certificates";
import { startReceiver, type TestReceiver } from "../receivers/http-receiver";
import { startProductionServer, type ProductionServer } from "./production-server.ts";
import { procedure } from "./two-instances.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const verifier = new Webhook(SECRET);

/** What a customer's receiver keeps: each verified delivery's events, in arrival order. */
interface Deliveries {
  batches: StreamEvent[][];
  /** Answers are held this long (a batch stays in flight meanwhile). */
  holdMs: number;
  /** Called when a delivery arrives, before it is answered. */
  onDelivery?: () => void;
}

function receiverOn(deliveries: Deliveries, port?: number): Promise<TestReceiver> {
  return startReceiver({
    tls: "valid",
    ...(port ? { port } : {}),
    raw: (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        const payload = verifier.verify(Buffer.concat(chunks).toString("utf8"), headers) as { type: string; data: StreamEvent[] };
        if (payload.type === "audit.events") deliveries.batches.push(payload.data);
        deliveries.onDelivery?.();
        setTimeout(() => res.writeHead(204).end(), deliveries.holdMs);
      });
    },
  });
}

/** The organization's event ids in stream order (transaction, then id), read as the owner. */
async function streamOrder(organizationId: string): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ id: string }[]>`
    SELECT id FROM audit_events WHERE organization_id = ${organizationId}::uuid
    ORDER BY COALESCE(transaction_id, '0'::xid8), id`;
  return rows.map((row) => row.id);
}

/** Every event arrived, first arrivals in stream order, each duplicate identical to its first copy. */
function expectComplete(deliveries: Deliveries, expected: string[]) {
  const first = new Map<string, StreamEvent>();
  let duplicates = 0;
  for (const event of deliveries.batches.flat()) {
    const seen = first.get(event.id);
    if (seen) {
      duplicates++;
      expect(event).toEqual(seen);
    } else first.set(event.id, event);
  }
  expect([...first.keys()]).toEqual(expected);
  return duplicates;
}

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number, server?: ProductionServer) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${server ? `:\n${server.output().slice(-3000)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const serverEnv = () => ({ NODE_EXTRA_CA_CERTS: testCertificates().caPath, STREAMING_ALLOW_PRIVATE_NETWORKS: "true" });
const servers: ProductionServer[] = [];

async function startServer() {
  const server = await startProductionServer(process.env.DATABASE_URL!, serverEnv());
  servers.push(server);
  await waitUntil("/readyz", async () => (await fetch(`${server.origin}/readyz`)).status === 200, 30_000, server);
  return server;
}

/** An owner of a new Enterprise organization, a stream to `url` created through the procedure from the start of the log. */
async function streamingOrganization(server: ProductionServer, url: string) {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }], { planId: "enterprise" });
  const { token } = await signedIn(user.id, organization.id);
  const created = await procedure(
    server,
    "auditStream/create",
    {
      organizationId: organization.id,
      name: "Fault receiver",
      kind: "webhook",
      url,
      secret: SECRET,
      start: { from: "date", date: "2000-01-01" },
    },
    { cookie: `session=${token}` },
  );
  expect(created.status, JSON.stringify(created.json)).toBe(200);
  return { userId: user.id, organizationId: organization.id };
}

beforeAll(() => {
  testCertificates();
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
}, 60_000);

describe("audit streaming under faults, production start", () => {
  it("a receiver killed mid-stream and started again on its port gets every event, in order", async () => {
    const server = await startServer();
    const deliveries: Deliveries = { batches: [], holdMs: 0 };
    let receiver = await receiverOn(deliveries);
    const port = receiver.port;
    const { userId, organizationId } = await streamingOrganization(server, receiver.url);
    await recordChanges(organizationId, userId, 700);
    // Down after the first batch: the next ones fail (connection refused) and wait out their pauses.
    await waitUntil("a first delivery", () => deliveries.batches.length > 0, 60_000, server);
    await receiver.stop();
    await recordChanges(organizationId, userId, 300);
    await waitUntil(
      "a failed attempt",
      async () => {
        const [row] = await prisma.$queryRaw<{ failures: number }[]>`
        SELECT consecutive_failures AS failures FROM audit_streams WHERE organization_id = ${organizationId}::uuid`;
        return (row?.failures ?? 0) > 0;
      },
      60_000,
      server,
    );
    receiver = await receiverOn(deliveries, port);
    const expected = await streamOrder(organizationId);
    await waitUntil("every event", () => new Set(deliveries.batches.flat().map((e) => e.id)).size >= expected.length, 90_000, server);
    expectComplete(deliveries, expected);
    await receiver.stop();
    await server.stop();
  }, 240_000);

  it("the app killed (SIGKILL) while a batch is in flight, then started again, delivers every event, in order", async () => {
    let server = await startServer();
    const deliveries: Deliveries = { batches: [], holdMs: 3_000 };
    const receiver = await receiverOn(deliveries);
    const { userId, organizationId } = await streamingOrganization(server, receiver.url);
    // The first batch arrives and is held unanswered; the server dies with it in flight.
    const killed = server;
    deliveries.onDelivery = () => {
      deliveries.onDelivery = undefined;
      killed.child.kill("SIGKILL");
    };
    await recordChanges(organizationId, userId, 1_200);
    await waitUntil("the server to be killed", () => killed.child.exitCode !== null || killed.child.signalCode !== null, 60_000, server);
    expect(deliveries.batches.length).toBe(1);
    deliveries.holdMs = 0;
    server = await startServer();
    await recordChanges(organizationId, userId, 100);
    const expected = await streamOrder(organizationId);
    await waitUntil("every event", () => new Set(deliveries.batches.flat().map((e) => e.id)).size >= expected.length, 120_000, server);
    // The batch in flight when the app died is sent again: its events arrive twice, unchanged.
    expect(expectComplete(deliveries, expected)).toBeGreaterThan(0);
    await receiver.stop();
  }, 300_000);
});

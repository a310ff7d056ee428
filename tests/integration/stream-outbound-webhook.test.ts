// The webhook sender against a real HTTPS Standard Webhooks receiver (tests/receivers/), and the
// address policy against the SSRF attempts the issue names, through sendBatch as the delivery job
// calls it. The receiver's certificate is signed by a CA made for this run and trusted here.
import dns from "node:dns";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Destination } from "~/audit-streams/destinations";
import { checkDestinationAddress, sendBatch } from "~/audit-streams/outbound/send-batch.server";
import { REQUEST_MAX_BYTES } from "~/audit-streams/outbound/request-bodies";
import { webhookMessageId } from "~/audit-streams/outbound/webhook.server";
import { EXPRESS_BODY_LIMIT, guardedPolicy, largeBatch, sampleBatch, testPolicy } from "../receivers/batches.ts";
import { trustTestCa } from "../receivers/certificates.ts";
import { startReceiver, type TestReceiver } from "../receivers/http-receiver.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../receivers/webhook-receiver.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
let receiver: WebhookReceiver;

function webhook(url: string, secret = SECRET): Destination {
  return { kind: "webhook", settings: { url }, credentials: { secret } };
}

beforeAll(async () => {
  trustTestCa();
  receiver = await startWebhookReceiver(SECRET);
});
afterAll(() => receiver.stop());
afterEach(() => {
  vi.restoreAllMocks();
  receiver.answer = null;
});

describe("the webhook sender", () => {
  it("delivers a batch the receiver's Standard Webhooks library verifies, in the documented body, oldest first", async () => {
    const batch = sampleBatch(3);
    const result = await sendBatch(webhook(`${receiver.url}/hooks/audit?via=test`), batch, testPolicy());
    expect(result).toEqual({ ok: true, status: 204 });
    const delivery = receiver.deliveries.at(-1)!;
    expect(delivery.id).toBe(webhookMessageId(batch));
    expect(delivery.payload).toEqual({ type: "audit.events", version: 1, data: batch.events });
    const request = receiver.requests.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/hooks/audit?via=test");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
  });

  it("sends the same webhook-id for the same batch again, and another for another batch", async () => {
    const batch = sampleBatch(2);
    await sendBatch(webhook(receiver.url), batch, testPolicy());
    await sendBatch(webhook(receiver.url), batch, testPolicy());
    await sendBatch(webhook(receiver.url), sampleBatch(2), testPolicy());
    const ids = receiver.deliveries.slice(-3).map((d) => d.id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it("sends a new webhook-id for the same events in a new generation (a replay), the same id within one", async () => {
    const batch = sampleBatch(2);
    await sendBatch(webhook(receiver.url), { ...batch, generation: 4 }, testPolicy());
    await sendBatch(webhook(receiver.url), { ...batch, generation: 4 }, testPolicy());
    await sendBatch(webhook(receiver.url), { ...batch, generation: 5 }, testPolicy());
    const [first, retry, replay] = receiver.deliveries.slice(-3).map((d) => d.id);
    expect(retry).toBe(first);
    expect(replay).not.toBe(first);
  });

  it("gets every event of a 500-event batch of large details past a receiver refusing bodies over 100 kB, in order", async () => {
    const limited = await startWebhookReceiver(SECRET, { tls: false, bodyLimit: EXPRESS_BODY_LIMIT });
    try {
      const batch = largeBatch(500);
      expect(await sendBatch(webhook(limited.url), batch, testPolicy())).toEqual({ ok: true, status: 204 });
      expect(limited.deliveries.flatMap((d) => d.payload.data)).toEqual(batch.events);
      expect(limited.requests.length).toBeGreaterThan(5);
      for (const request of limited.requests) expect(request.body.length).toBeLessThanOrEqual(REQUEST_MAX_BYTES);
      expect(new Set(limited.deliveries.map((d) => d.id)).size).toBe(limited.requests.length);
    } finally {
      await limited.stop();
    }
  });

  it("fails the batch when one of its requests fails, and sends the same requests with the same ids again", async () => {
    const batch = { ...largeBatch(200), generation: 2 };
    let answered = 0;
    receiver.answer = () => (++answered === 2 ? { status: 503 } : null);
    const before = receiver.deliveries.length;
    expect(await sendBatch(webhook(receiver.url), batch, testPolicy())).toEqual({
      ok: false,
      failure: "http_status",
      status: 503,
      detail: "answered 503",
    });
    // The first request was taken, the second refused, none sent after it.
    expect(answered).toBe(2);
    const firstAttempt = receiver.deliveries.slice(before).map((d) => d.id);
    expect(firstAttempt).toHaveLength(1);
    expect(await sendBatch(webhook(receiver.url), batch, testPolicy())).toEqual({ ok: true, status: 204 });
    const retry = receiver.deliveries.slice(before + 1);
    expect(retry[0]!.id).toBe(firstAttempt[0]);
    expect(retry.flatMap((d) => d.payload.data)).toEqual(batch.events);
  });

  it("sends an event larger than the cap alone, the others around it in their own requests", async () => {
    const batch = sampleBatch(3);
    batch.events[1] = { ...batch.events[1]!, details: { note: "y".repeat(REQUEST_MAX_BYTES) } };
    const before = receiver.deliveries.length;
    expect(await sendBatch(webhook(receiver.url), batch, testPolicy())).toEqual({ ok: true, status: 204 });
    expect(receiver.deliveries.slice(before).map((d) => d.payload.data.map((e) => e.id))).toEqual(batch.events.map((e) => [e.id]));
  });

  it("is refused by the receiver when signed with another secret", async () => {
    const refusedBefore = receiver.refused.length;
    const result = await sendBatch(webhook(receiver.url, "whsec_QkVCQUNEQkVCQUNEQkVCQUNEQkVCQUNE"), sampleBatch(1), testPolicy());
    expect(result).toEqual({ ok: false, failure: "http_status", status: 401, detail: "answered 401" });
    expect(receiver.refused.length).toBe(refusedBefore + 1);
  });

  it("reports the receiver's 503 as http_status with the status, never its body", async () => {
    receiver.answer = () => ({ status: 503, body: '{"secret":"do not show"}' });
    const result = await sendBatch(webhook(receiver.url), sampleBatch(1), testPolicy());
    expect(result).toEqual({ ok: false, failure: "http_status", status: 503, detail: "answered 503" });
  });

  it("with STREAMING_ALLOW_PRIVATE_NETWORKS on, delivers over http:// to loopback", async () => {
    const plain = await startWebhookReceiver(SECRET, { tls: false });
    try {
      expect(await sendBatch(webhook(plain.url), sampleBatch(1), testPolicy())).toEqual({ ok: true, status: 204 });
      expect(plain.deliveries).toHaveLength(1);
    } finally {
      await plain.stop();
    }
  });
});

describe("the address policy (STREAMING_ALLOW_PRIVATE_NETWORKS off)", () => {
  let target: TestReceiver;
  beforeAll(async () => {
    target = await startReceiver();
  });
  afterAll(() => target.stop());

  async function refused(url: string, detail: RegExp | string) {
    const result = await sendBatch(webhook(url), sampleBatch(1), guardedPolicy());
    expect(result).toMatchObject({ ok: false, failure: "address_refused", status: null });
    expect(result.ok ? "" : result.detail).toMatch(detail);
  }

  it("refuses loopback by address, before connecting", async () => {
    await refused(`https://127.0.0.1:${target.port}/`, "127.0.0.1 is loopback");
    await refused(`https://[::1]:${target.port}/`, "::1 is loopback");
    expect(target.requests).toHaveLength(0);
    expect(await checkDestinationAddress(webhook(`https://127.0.0.1:${target.port}/`), guardedPolicy())).toBe("auditStream.privateAddress");
  });

  it("refuses the cloud metadata address and its IPv4-mapped IPv6 form", async () => {
    await refused("https://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address");
    await refused(`https://[::ffff:127.0.0.1]:${target.port}/`, "loopback (inside an IPv6 address)");
    await refused("https://[::ffff:169.254.169.254]/", "a cloud metadata address (inside an IPv6 address)");
    expect(await checkDestinationAddress(webhook("https://169.254.169.254/"), guardedPolicy())).toBe("auditStream.privateAddress");
  });

  it("refuses localhost and any name resolving to 127.0.0.1, on the resolved address", async () => {
    await refused(`https://localhost:${target.port}/`, "127.0.0.1 is loopback");
    const lookup = dns.lookup;
    vi.spyOn(dns, "lookup").mockImplementation(((hostname: string, options: dns.LookupAllOptions, callback: never) =>
      hostname === "receiver.customer.example"
        ? (callback as (e: null, a: dns.LookupAddress[]) => void)(null, [{ address: "127.0.0.1", family: 4 }])
        : lookup(hostname, options, callback)) as typeof dns.lookup);
    await refused(`https://receiver.customer.example:${target.port}/`, "127.0.0.1 is loopback");
    expect(await checkDestinationAddress(webhook("https://receiver.customer.example/"), guardedPolicy())).toBe(
      "auditStream.privateAddress",
    );
    expect(target.requests).toHaveLength(0);
  });

  it("checks again at connect time, so a name that answered a public address at save time and 127.0.0.1 later (DNS rebinding) is refused", async () => {
    const answers = [[{ address: "93.184.215.14", family: 4 }], [{ address: "127.0.0.1", family: 4 }]];
    vi.spyOn(dns, "lookup").mockImplementation(((_hostname: string, _options: unknown, callback: never) =>
      (callback as (e: null, a: dns.LookupAddress[]) => void)(null, answers.shift() ?? [])) as typeof dns.lookup);
    const destination = webhook(`https://rebinding.example:${target.port}/`);
    expect(await checkDestinationAddress(destination, guardedPolicy())).toBeNull();
    await refused(`https://rebinding.example:${target.port}/`, "127.0.0.1 is loopback");
    expect(target.requests).toHaveLength(0);
  });

  it("refuses a name with one public and one private address", async () => {
    vi.spyOn(dns, "lookup").mockImplementation(((_hostname: string, _options: unknown, callback: never) =>
      (callback as (e: null, a: dns.LookupAddress[]) => void)(null, [
        { address: "93.184.215.14", family: 4 },
        { address: "10.0.0.5", family: 4 },
      ])) as typeof dns.lookup);
    await refused("https://mixed.example/", "10.0.0.5 is private");
  });

  it("refuses http:// (https only), and at save time says so", async () => {
    await refused("http://93.184.215.14/", "http:// is refused, only https:// is allowed");
    expect(await checkDestinationAddress(webhook("http://receiver.example.com/"), guardedPolicy())).toBe("auditStream.httpsRequired");
  });

  it("lets a name that does not resolve pass at save time; its delivery fails as dns", async () => {
    expect(await checkDestinationAddress(webhook("https://nothing-here.invalid/"), guardedPolicy())).toBeNull();
    expect(await sendBatch(webhook("https://nothing-here.invalid/"), sampleBatch(1), guardedPolicy())).toMatchObject({
      ok: false,
      failure: "dns",
    });
  });

  it("with the setting on, lets loopback pass the save-time check", async () => {
    expect(await checkDestinationAddress(webhook(`http://127.0.0.1:${target.port}/`), testPolicy())).toBeNull();
  });
});

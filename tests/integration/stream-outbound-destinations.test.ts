// The Splunk HEC, Datadog Logs and S3 senders against receivers that check the documented request
// formats (tests/receivers/), through sendBatch as the delivery job calls it.
import { gunzipSync } from "node:zlib";
import { GetObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Destination } from "~/audit-streams/destinations";
import { datadogBodies } from "~/audit-streams/outbound/datadog.server";
import { REQUEST_MAX_BYTES } from "~/audit-streams/outbound/request-bodies";
import { sendBatch } from "~/audit-streams/outbound/send-batch.server";
import { EXPRESS_BODY_LIMIT, guardedPolicy, largeBatch, ORGANIZATION_ID, sampleBatch, testPolicy } from "../receivers/batches.ts";
import { trustTestCa } from "../receivers/certificates.ts";
import { startDatadogReceiver, type DatadogReceiver } from "../receivers/datadog-receiver.ts";
import { S3RVER_CREDENTIALS, startS3Receiver, type S3Receiver } from "../receivers/s3-receiver.ts";
import { startSplunkReceiver, type SplunkReceiver } from "../receivers/splunk-receiver.ts";

const HEC_TOKEN = "8d5c1a52-4b7e-4c4b-9a51-2f0e1c7d9b11";
const DD_API_KEY = "0123456789abcdef0123456789abcdef";

beforeAll(() => trustTestCa());

describe("Splunk HTTP Event Collector", () => {
  let splunk: SplunkReceiver;
  beforeAll(async () => {
    splunk = await startSplunkReceiver(HEC_TOKEN);
  });
  afterAll(() => splunk.stop());

  const destination = (url: string, token = HEC_TOKEN, extra: { index?: string; sourcetype?: string } = {}): Destination => ({
    kind: "splunk",
    settings: { url, ...extra },
    credentials: { token },
  });

  it("posts each event as a HEC event to /services/collector/event with the Splunk token, in order", async () => {
    const batch = sampleBatch(3);
    expect(await sendBatch(destination(splunk.url, HEC_TOKEN, { index: "audit" }), batch, testPolicy())).toEqual({ ok: true, status: 200 });
    const received = splunk.events.slice(-3);
    expect(received.map((e) => e.event)).toEqual(batch.events);
    expect(received[0]).toMatchObject({ source: "keyledger", sourcetype: "keyledger:audit", index: "audit" });
    expect(received[0]!.time).toBe(Date.parse(batch.events[0]!.createdAt) / 1000);
    expect(splunk.requests.at(-1)!.headers["x-splunk-request-channel"]).toBe(batch.streamId);
  });

  it("takes an address that already names the event path, and a custom source type without an index", async () => {
    const url = `${splunk.url}/services/collector/event`;
    expect(await sendBatch(destination(url, HEC_TOKEN, { sourcetype: "kl:json" }), sampleBatch(1), testPolicy())).toMatchObject({
      ok: true,
    });
    expect(splunk.events.at(-1)).toMatchObject({ sourcetype: "kl:json" });
    expect(splunk.events.at(-1)).not.toHaveProperty("index");
  });

  it("a wrong token is the collector's 403", async () => {
    expect(await sendBatch(destination(splunk.url, "00000000-0000-0000-0000-000000000000"), sampleBatch(1), testPolicy())).toEqual({
      ok: false,
      failure: "http_status",
      status: 403,
      detail: "answered 403",
    });
  });

  it("a 200 whose HEC code is not 0 is rejected", async () => {
    splunk.answerCode = 9;
    try {
      expect(await sendBatch(destination(splunk.url), sampleBatch(1), testPolicy())).toEqual({
        ok: false,
        failure: "rejected",
        status: 200,
        detail: "HEC code 9 (Server is busy)",
      });
    } finally {
      splunk.answerCode = null;
    }
  });

  it("gets every event of a 500-event batch of large details past a collector refusing bodies over 100 kB, in order", async () => {
    const limited = await startSplunkReceiver(HEC_TOKEN, { bodyLimit: EXPRESS_BODY_LIMIT });
    try {
      const batch = largeBatch(500);
      expect(await sendBatch(destination(limited.url), batch, testPolicy())).toEqual({ ok: true, status: 200 });
      expect(limited.events.map((e) => e.event)).toEqual(batch.events);
      expect(limited.requests.length).toBeGreaterThan(5);
      for (const request of limited.requests) expect(request.body.length).toBeLessThanOrEqual(REQUEST_MAX_BYTES);
    } finally {
      await limited.stop();
    }
  });

  it("fails the batch at the first request the collector refuses, sending nothing after it", async () => {
    const limited = await startSplunkReceiver(HEC_TOKEN, { bodyLimit: EXPRESS_BODY_LIMIT });
    try {
      const batch = largeBatch(300);
      batch.events[150] = { ...batch.events[150]!, details: { note: "z".repeat(EXPRESS_BODY_LIMIT) } };
      expect(await sendBatch(destination(limited.url), batch, testPolicy())).toEqual({
        ok: false,
        failure: "http_status",
        status: 413,
        detail: "answered 413",
      });
      // Everything before the oversized event arrived, in order; nothing after it was sent.
      expect(limited.events.map((e) => e.event)).toEqual(batch.events.slice(0, 150));
    } finally {
      await limited.stop();
    }
  });

  it("refuses loopback with private networks off", async () => {
    expect(await sendBatch(destination(splunk.url), sampleBatch(1), guardedPolicy())).toMatchObject({
      ok: false,
      failure: "address_refused",
    });
  });
});

describe("Datadog Logs", () => {
  let datadog: DatadogReceiver;
  beforeAll(async () => {
    datadog = await startDatadogReceiver(DD_API_KEY);
  });
  afterAll(() => datadog.stop());

  const destination = (apiKey = DD_API_KEY, extra: { service?: string; tags?: string } = {}): Destination => ({
    kind: "datadog",
    settings: { url: datadog.url, ...extra },
    credentials: { apiKey },
  });

  it("posts the events as log entries with ddsource, service, tags, a readable message and the event's fields", async () => {
    const batch = sampleBatch(2);
    expect(await sendBatch(destination(DD_API_KEY, { service: "audit", tags: "env:prod,team:sec" }), batch, testPolicy())).toEqual({
      ok: true,
      status: 202,
    });
    const [first] = datadog.entries.slice(-2);
    expect(first).toMatchObject({
      ddsource: "keyledger",
      service: "audit",
      ddtags: `organization_id:${ORGANIZATION_ID},env:prod,team:sec`,
      message: 'api_key.created by Ada Lovelace on api_key "deploy key 0"',
      date: batch.events[0]!.createdAt,
      ...batch.events[0],
    });
    expect(datadog.entries.slice(-2).map((e) => e.id)).toEqual(batch.events.map((e) => e.id));
  });

  it("splits a batch of 2,500 events into requests of at most 1,000 entries, in order", async () => {
    const before = datadog.requests.length;
    const batch = sampleBatch(2500);
    expect(await sendBatch(destination(), batch, testPolicy())).toEqual({ ok: true, status: 202 });
    expect(datadog.requests.length - before).toBe(3);
    expect(datadog.entries.slice(-2500).map((e) => e.id)).toEqual(batch.events.map((e) => e.id));
  });

  it("keeps each request under 5 MB", () => {
    const entry = JSON.stringify({ message: "x".repeat(100_000) });
    const bodies = datadogBodies(Array.from({ length: 120 }, () => entry));
    expect(bodies.length).toBeGreaterThan(2);
    for (const body of bodies) expect(Buffer.byteLength(body)).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(bodies.flatMap((b) => JSON.parse(b) as unknown[])).toHaveLength(120);
  });

  it("a wrong API key is the intake's 403", async () => {
    expect(await sendBatch(destination("ffffffffffffffffffffffffffffffff"), sampleBatch(1), testPolicy())).toMatchObject({
      ok: false,
      failure: "http_status",
      status: 403,
    });
  });
});

describe("S3-compatible storage (s3rver)", () => {
  let s3: S3Receiver;
  let reader: S3Client;
  beforeAll(async () => {
    s3 = await startS3Receiver();
    reader = new S3Client({ region: "us-east-1", endpoint: s3.endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  });
  afterAll(async () => {
    reader.destroy();
    await s3.stop();
  });

  const destination = (prefix?: string, bucket = s3.bucket, credentials = S3RVER_CREDENTIALS): Destination => ({
    kind: "s3",
    settings: { endpoint: s3.endpoint, region: "us-east-1", bucket, forcePathStyle: true, ...(prefix ? { prefix } : {}) },
    credentials,
  });

  async function read(key: string): Promise<unknown[]> {
    const object = await reader.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
    const text = gunzipSync(Buffer.from(await object.Body!.transformToByteArray())).toString("utf8");
    return text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
  }

  it("writes one gzip NDJSON object per hour the batch spans, keyed by organization, hour and first and last event", async () => {
    const batch = sampleBatch(4); // 10:59:58, 10:59:59, 11:00:00, 11:00:01 UTC
    expect(await sendBatch(destination("audit/keyledger/"), batch, testPolicy())).toMatchObject({ ok: true, status: 200 });
    const [a, b, c, d] = batch.events;
    const listed = await reader.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "audit/keyledger/" }));
    expect(listed.Contents?.map((o) => o.Key).sort()).toEqual([
      `audit/keyledger/${ORGANIZATION_ID}/2026/11/26/10/${a!.id}-${b!.id}.ndjson.gz`,
      `audit/keyledger/${ORGANIZATION_ID}/2026/11/26/11/${c!.id}-${d!.id}.ndjson.gz`,
    ]);
    expect(await read(`audit/keyledger/${ORGANIZATION_ID}/2026/11/26/10/${a!.id}-${b!.id}.ndjson.gz`)).toEqual([a, b]);
    expect(await read(`audit/keyledger/${ORGANIZATION_ID}/2026/11/26/11/${c!.id}-${d!.id}.ndjson.gz`)).toEqual([c, d]);
  });

  it("writes the same key again when the same batch is retried, adding no copy", async () => {
    const batch = sampleBatch(2, new Date("2026-11-26T12:10:00.000Z"));
    await sendBatch(destination("retry/"), batch, testPolicy());
    await sendBatch(destination("retry/"), batch, testPolicy());
    const listed = await reader.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "retry/" }));
    expect(listed.Contents).toHaveLength(1);
  });

  it("an unknown access key and a missing bucket are S3's answers with their error codes", async () => {
    const wrongKey = destination(undefined, s3.bucket, { accessKeyId: "AKIANOTKNOWN", secretAccessKey: "S3RVER" });
    expect(await sendBatch(wrongKey, sampleBatch(1), testPolicy())).toMatchObject({
      ok: false,
      failure: "http_status",
      status: 403,
      detail: "answered 403 (InvalidAccessKeyId)",
    });
    const noBucket = destination(undefined, "no-such-bucket");
    expect(await sendBatch(noBucket, sampleBatch(1), testPolicy())).toMatchObject({
      ok: false,
      failure: "http_status",
      status: 404,
      detail: "answered 404 (NoSuchBucket)",
    });
  });

  it("refuses a loopback endpoint with private networks off, through the SDK's connections too", async () => {
    expect(await sendBatch(destination(), sampleBatch(1), guardedPolicy())).toMatchObject({
      ok: false,
      failure: "address_refused",
      detail: "127.0.0.1 is loopback",
    });
  });
});

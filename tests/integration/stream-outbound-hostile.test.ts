// Receivers that misbehave (the "bad input it must survive"): each ends in its own failure,
// within the policy's bound, without following, buffering or trusting what it was sent. The policy
// here allows private networks (the receivers listen on loopback) and, for the slow ones, a short
// timeout so the suite stays quick; the bound is the policy's, whatever its length.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Destination } from "~/audit-streams/destinations";
import { sendBatch } from "~/audit-streams/outbound/send-batch.server";
import { sampleBatch, testPolicy } from "../receivers/batches.ts";
import { testCertificates, trustTestCa } from "../receivers/certificates.ts";
import {
  startExpiredCertificateReceiver,
  startFailingReceiver,
  startHangingReceiver,
  startHugeBodyReceiver,
  startRedirectingReceiver,
  startTricklingReceiver,
  type HostileReceiver,
} from "../receivers/hostile-receivers.ts";
import { startReceiver, type TestReceiver } from "../receivers/http-receiver.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const running: (HostileReceiver | TestReceiver)[] = [];

async function started<T extends HostileReceiver | TestReceiver>(receiver: Promise<T>): Promise<T> {
  const value = await receiver;
  running.push(value);
  return value;
}

function webhook(url: string): Destination {
  return { kind: "webhook", settings: { url }, credentials: { secret: SECRET } };
}

beforeAll(() => trustTestCa());
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

describe("hostile receivers", () => {
  it("a receiver that accepts and never answers is cut at the timeout", async () => {
    const receiver = await started(startHangingReceiver());
    const result = await sendBatch(webhook(receiver.url), sampleBatch(2), testPolicy({ timeoutMs: 1_000 }));
    expect(result).toEqual({ ok: false, failure: "timeout", status: null, detail: "no complete answer within 1 s" });
  });

  it("a receiver that answers 200 and then trickles its body forever is cut at the timeout", async () => {
    const receiver = await started(startTricklingReceiver());
    const result = await sendBatch(webhook(receiver.url), sampleBatch(1), testPolicy({ timeoutMs: 1_500 }));
    expect(result).toMatchObject({ ok: false, failure: "timeout" });
  });

  it("a receiver that answers 500 every time fails as http_status 500 each time", async () => {
    const receiver = await started(startFailingReceiver(500));
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(await sendBatch(webhook(receiver.url), sampleBatch(1), testPolicy())).toEqual({
        ok: false,
        failure: "http_status",
        status: 500,
        detail: "answered 500",
      });
    }
    expect(receiver.requests).toHaveLength(3);
  });

  it.each([
    ["declared in Content-Length", true],
    ["streamed without a length", false],
  ])("a 200 with a 1 GB body (%s) fails as response_too_large, read no further than the limit", async (_label, declared) => {
    const receiver = await started(startHugeBodyReceiver(declared));
    // Heap and Buffers together: a body held in memory would show in one of them.
    const held = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const before = held();
    const result = await sendBatch(webhook(receiver.url), sampleBatch(1), testPolicy());
    expect(result).toEqual({ ok: false, failure: "response_too_large", status: null, detail: "answer larger than 64 KB" });
    // The connection was destroyed: the receiver could write only what fits in the socket buffers.
    expect(receiver.bytesWritten()).toBeLessThan(64 * 1024 * 1024);
    expect(held() - before).toBeLessThan(32 * 1024 * 1024);
  });

  it("a redirect, even with private networks allowed, is not followed: its target gets nothing", async () => {
    const target = await started(startReceiver());
    for (const [status, location] of [
      [302, `${target.url}/stolen`],
      [307, "http://169.254.169.254/latest/meta-data/iam/security-credentials/"],
      [301, `${target.url}/moved`],
    ] as const) {
      const receiver = await started(startRedirectingReceiver(location, status));
      expect(await sendBatch(webhook(receiver.url), sampleBatch(1), testPolicy())).toEqual({
        ok: false,
        failure: "redirect",
        status,
        detail: `answered ${status}, redirects are not followed`,
      });
      expect(receiver.requests).toHaveLength(1);
    }
    expect(target.requests).toHaveLength(0);
  });

  it("an expired certificate fails as tls, and the receiver reads nothing", async () => {
    const receiver = await started(startExpiredCertificateReceiver());
    expect(await sendBatch(webhook(receiver.url), sampleBatch(1), testPolicy())).toEqual({
      ok: false,
      failure: "tls",
      status: null,
      detail: "CERT_HAS_EXPIRED",
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it("a receiver whose port is closed fails as network", async () => {
    const receiver = await startReceiver();
    await receiver.stop();
    expect(await sendBatch(webhook(receiver.url), sampleBatch(1), testPolicy())).toEqual({
      ok: false,
      failure: "network",
      status: null,
      detail: "ECONNREFUSED",
    });
  });

  describe("through the S3 SDK", () => {
    const s3 = (endpoint: string): Destination => ({
      kind: "s3",
      settings: { endpoint, region: "us-east-1", bucket: "audit-bucket", forcePathStyle: true },
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });

    it("an endpoint that never answers is cut at the timeout", async () => {
      const receiver = await started(startHangingReceiver());
      expect(await sendBatch(s3(receiver.url), sampleBatch(1), testPolicy({ timeoutMs: 1_000 }))).toMatchObject({
        ok: false,
        failure: "timeout",
      });
    });

    it("an endpoint that answers 200 with 1 GB is cut at the limit", async () => {
      const receiver = await started(startHugeBodyReceiver(false));
      expect(await sendBatch(s3(receiver.url), sampleBatch(1), testPolicy())).toMatchObject({
        ok: false,
        failure: "response_too_large",
      });
      expect(receiver.bytesWritten()).toBeLessThan(64 * 1024 * 1024);
    });

    it("a redirect is not followed and an expired certificate fails as tls", async () => {
      const target = await started(startReceiver());
      const redirecting = await started(startRedirectingReceiver(`${target.url}/elsewhere`, 307));
      expect(await sendBatch(s3(redirecting.url), sampleBatch(1), testPolicy())).toMatchObject({
        ok: false,
        failure: "redirect",
        status: 307,
      });
      expect(target.requests).toHaveLength(0);
      const expired = await started(startExpiredCertificateReceiver());
      expect(await sendBatch(s3(expired.url), sampleBatch(1), testPolicy())).toMatchObject({
        ok: false,
        failure: "tls",
        detail: "CERT_HAS_EXPIRED",
      });
    });
  });
});

describe("the test receivers for other processes", () => {
  it("a spawned Node trusts the receivers' certificate through NODE_EXTRA_CA_CERTS", async () => {
    const receiver = await started(startReceiver());
    const script = `require("node:https").get(process.argv[1], (res) => { console.log(res.statusCode); res.resume(); }).on("error", (e) => { console.log(e.code); });`;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", script, receiver.url], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: testCertificates().caPath },
    });
    expect(stdout.trim()).toBe("200");
  });
});

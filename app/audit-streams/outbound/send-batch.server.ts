// PLACEHOLDER until part B of issue 32 (branch stream-outbound) lands its senders: the contract's
// signatures, with a plain webhook POST (no signature, no address checks) so the delivery job can
// be built and tested against a local receiver. Merging stream-outbound replaces this file whole.
import type { ErrorKey } from "~/lib/error-key";
import type { Destination } from "~/audit-streams/destinations";
import { webhookBody, type StreamBatch } from "~/audit-streams/stream-event";
import type { OutboundPolicy, SendResult } from "./send-result";

export function outboundPolicy(): OutboundPolicy {
  return { allowPrivateNetworks: process.env.STREAMING_ALLOW_PRIVATE_NETWORKS === "true", timeoutMs: 10_000, maxResponseBytes: 65_536 };
}

export async function checkDestinationAddress(_destination: Destination, _policy?: OutboundPolicy): Promise<ErrorKey | null> {
  return null;
}

export async function sendBatch(
  destination: Destination,
  batch: StreamBatch,
  policy: OutboundPolicy = outboundPolicy(),
): Promise<SendResult> {
  if (destination.kind !== "webhook") return { ok: false, failure: "network", status: null, detail: "sender not built yet" };
  try {
    const response = await fetch(destination.settings.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: webhookBody(batch),
      redirect: "manual",
      signal: AbortSignal.timeout(policy.timeoutMs),
    });
    await response.arrayBuffer();
    if (response.ok) return { ok: true, status: response.status };
    return { ok: false, failure: "http_status", status: response.status, detail: `answered ${response.status}` };
  } catch (error) {
    return { ok: false, failure: "network", status: null, detail: (error as Error).name };
  }
}

// PLACEHOLDER for the stream-core branch only: the outbound interface of issue 32 (part B,
// branch stream-outbound, writes the real file at this path; a merge takes that one whole). The
// service codes against these signatures; its tests replace this module with their own receiver.
import type { Destination } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamBatch } from "~/audit-streams/stream-event";
import type { ErrorKey } from "~/lib/error-key";

export function outboundPolicy(): OutboundPolicy {
  return { allowPrivateNetworks: false, timeoutMs: 10_000, maxResponseBytes: 64 * 1024 };
}

/** Why the destination's address will be refused (an `errors:` key), or null when it may be saved. */
export async function checkDestinationAddress(
  destination: Destination,
  policy: OutboundPolicy = outboundPolicy(),
): Promise<ErrorKey | null> {
  const text = destination.kind === "s3" ? (destination.settings.endpoint ?? null) : destination.settings.url;
  if (text === null || policy.allowPrivateNetworks) return null;
  return URL.parse(text)?.protocol === "https:" ? null : "auditStream.httpsRequired";
}

/** Sends one batch to one destination; never throws. */
export async function sendBatch(
  _destination: Destination,
  _batch: StreamBatch,
  _policy: OutboundPolicy = outboundPolicy(),
): Promise<SendResult> {
  return { ok: false, failure: "network", status: null, detail: "outbound requests are not built on this branch" };
}

// The limits every outbound request of an audit stream keeps, read from the environment once per
// call (tests change STREAMING_ALLOW_PRIVATE_NETWORKS through env()).
import type { OutboundPolicy } from "~/audit-streams/outbound/send-result";
import { env } from "~/env.server";

/** A receiver has 10 s to take a batch and answer: generous for a SIEM, short enough that one hung receiver cannot hold a worker. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
/** Receivers answer with a status and a short acknowledgement; 64 KB is far more than any of them sends. */
export const OUTBOUND_MAX_RESPONSE_BYTES = 64 * 1024;

export function outboundPolicy(): OutboundPolicy {
  return {
    allowPrivateNetworks: env().STREAMING_ALLOW_PRIVATE_NETWORKS,
    timeoutMs: OUTBOUND_TIMEOUT_MS,
    maxResponseBytes: OUTBOUND_MAX_RESPONSE_BYTES,
  };
}

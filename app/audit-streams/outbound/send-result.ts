// What one delivery attempt came to, as the delivery job records it and the page shows it. Pure
// data: the page translates `failure` (auditStreams locale namespace) and shows `status` and
// `detail` beside it. `detail` is short technical text from our side (an error code such as
// CERT_HAS_EXPIRED or ECONNREFUSED, "answered 503"): never the receiver's body, never a credential.

export const DELIVERY_FAILURES = [
  /** The address is loopback, private, link-local or metadata (checked on the resolved address at connect time). */
  "address_refused",
  /** The host name did not resolve. */
  "dns",
  /** The connection failed or was cut (refused, reset, closed early). */
  "network",
  /** TLS failed: expired, self-signed or wrong-host certificate. */
  "tls",
  /** No complete answer within the time allowed. */
  "timeout",
  /** The receiver answered with a redirect, which is never followed. */
  "redirect",
  /** The receiver answered with a status other than 2xx. */
  "http_status",
  /** The answer's body was larger than we read. */
  "response_too_large",
  /** The receiver said 2xx but its body reports an error (Splunk's `code` other than 0). */
  "rejected",
] as const;
export type DeliveryFailure = (typeof DELIVERY_FAILURES)[number];

export type SendResult =
  { ok: true; status: number | null } | { ok: false; failure: DeliveryFailure; status: number | null; detail: string };

/** How outbound requests are bounded (STREAMING_ALLOW_PRIVATE_NETWORKS and the fixed limits). */
export interface OutboundPolicy {
  /** Allows http:// and loopback or private addresses: tests and self-hosting on a private network. */
  allowPrivateNetworks: boolean;
  /** Whole request, connect to last byte read. */
  timeoutMs: number;
  /** How much of an answer's body is read before the request is cut. */
  maxResponseBytes: number;
}

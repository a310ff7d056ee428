// The webhook destination: one POST per batch (several in order when it is larger than the request
// cap), signed per the Standard Webhooks specification (standardwebhooks.com) with the
// `standardwebhooks` package, so any receiver's own library for it verifies our signature.
// docs/audit-stream-format.md describes the request.
import { createHash } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { failed } from "~/audit-streams/outbound/failure-of-error.server";
import { REQUEST_MAX_BYTES, splitIntoBodies } from "~/audit-streams/outbound/request-bodies";
import { safeRequest } from "~/audit-streams/outbound/safe-request.server";
import type { DestinationCredentials, DestinationSettings } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import { webhookBody, type StreamBatch } from "~/audit-streams/stream-event";

/**
 * The message id: the same for the same events of the same stream generation, so a receiver that
 * saw a delivery whose answer we lost drops the retry by `webhook-id` alone, while a replay (a new
 * generation) is a new message it keeps. Each event's `id` also lets it drop duplicates across
 * batches of other sizes. Derived from the stream, its generation, and the first and last event ids.
 */
export function webhookMessageId(batch: StreamBatch): string {
  const first = batch.events[0]?.id ?? "none";
  const last = batch.events.at(-1)?.id ?? "none";
  const generation = batch.generation ?? "none";
  const digest = createHash("sha256")
    .update(`${batch.streamId}\n${generation}\n${batch.type}\n${first}\n${last}\n${batch.events.length}`)
    .digest("base64url");
  return `msg_${digest.slice(0, 32)}`;
}

/** The batch as the messages it is sent in: its events in order, each message's body within the cap. */
export function webhookMessages(batch: StreamBatch): StreamBatch[] {
  if (batch.events.length === 0) return [batch];
  const limit = { maxBytes: REQUEST_MAX_BYTES, envelopeBytes: Buffer.byteLength(webhookBody({ ...batch, events: [] })), separatorBytes: 1 };
  return splitIntoBodies(batch.events, (event) => Buffer.byteLength(JSON.stringify(event)), limit).map((events) => ({ ...batch, events }));
}

/** The three Standard Webhooks headers for `body`, signed now (receivers refuse stale timestamps). */
export function webhookHeaders(secret: string, messageId: string, body: string, now = new Date()): Record<string, string> {
  // Standard Webhooks timestamps are whole seconds; sign exactly the value sent.
  const timestamp = new Date(Math.floor(now.getTime() / 1000) * 1000);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp.getTime() / 1000),
    "webhook-signature": new Webhook(secret).sign(messageId, timestamp, body),
  };
}

export async function sendWebhook(
  settings: DestinationSettings<"webhook">,
  credentials: Partial<DestinationCredentials<"webhook">>,
  batch: StreamBatch,
  policy: OutboundPolicy,
): Promise<SendResult> {
  if (!credentials.secret) return failed("rejected", "no signing secret stored");
  // One message after another, in order; the first that fails fails the batch, which is sent again
  // whole (the messages already taken come again with their ids, for the receiver to drop).
  let status: number | null = null;
  for (const message of webhookMessages(batch)) {
    const body = webhookBody(message);
    const answer = await safeRequest(
      {
        url: settings.url,
        method: "POST",
        headers: { "content-type": "application/json", ...webhookHeaders(credentials.secret, webhookMessageId(message), body) },
        body,
      },
      policy,
    );
    if (!answer.ok) return answer;
    status = answer.status;
  }
  return { ok: true, status };
}

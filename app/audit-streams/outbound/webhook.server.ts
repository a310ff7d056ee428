// The webhook destination: one POST per batch, signed per the Standard Webhooks specification
// (standardwebhooks.com) with the `standardwebhooks` package, so any receiver's own library for
// it verifies our signature. docs/audit-stream-format.md describes the request.
import { createHash } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { failed } from "~/audit-streams/outbound/failure-of-error.server";
import { safeRequest } from "~/audit-streams/outbound/safe-request.server";
import type { DestinationCredentials, DestinationSettings } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import { webhookBody, type StreamBatch } from "~/audit-streams/stream-event";

/**
 * The message id: the same for the same batch, so a receiver that saw a delivery whose answer we
 * lost drops the retry by `webhook-id` alone (each event's `id` also lets it drop duplicates
 * across batches of other sizes). Derived from the stream and the first and last event ids.
 */
export function webhookMessageId(batch: StreamBatch): string {
  const first = batch.events[0]?.id ?? "none";
  const last = batch.events.at(-1)?.id ?? "none";
  const digest = createHash("sha256")
    .update(`${batch.streamId}\n${batch.type}\n${first}\n${last}\n${batch.events.length}`)
    .digest("base64url");
  return `msg_${digest.slice(0, 32)}`;
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
  const body = webhookBody(batch);
  const answer = await safeRequest(
    {
      url: settings.url,
      method: "POST",
      headers: { "content-type": "application/json", ...webhookHeaders(credentials.secret, webhookMessageId(batch), body) },
      body,
    },
    policy,
  );
  return answer.ok ? { ok: true, status: answer.status } : answer;
}

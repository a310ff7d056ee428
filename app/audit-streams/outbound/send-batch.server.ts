// The outbound interface the delivery job and the "send a test event" button call
// (docs/audit-stream-format.md describes each destination's request). Every sender goes through
// the same guarded connections (safe-request.server.ts, s3.server.ts), and nothing here throws:
// whatever goes wrong comes back as a SendResult the job records and the page shows.
import { failureOfError } from "~/audit-streams/outbound/failure-of-error.server";
import { outboundPolicy } from "~/audit-streams/outbound/policy.server";
import { sendDatadog } from "~/audit-streams/outbound/datadog.server";
import { sendS3 } from "~/audit-streams/outbound/s3.server";
import { sendSplunk } from "~/audit-streams/outbound/splunk.server";
import { sendWebhook } from "~/audit-streams/outbound/webhook.server";
import type { Destination } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamBatch } from "~/audit-streams/stream-event";

export { checkDestinationAddress } from "~/audit-streams/outbound/check-address.server";
export { outboundPolicy } from "~/audit-streams/outbound/policy.server";

/** Sends one batch to one destination, at most once per call (the job retries). */
export async function sendBatch(
  destination: Destination,
  batch: StreamBatch,
  policy: OutboundPolicy = outboundPolicy(),
): Promise<SendResult> {
  try {
    switch (destination.kind) {
      case "webhook":
        return await sendWebhook(destination.settings, destination.credentials, batch, policy);
      case "splunk":
        return await sendSplunk(destination.settings, destination.credentials, batch, policy);
      case "datadog":
        return await sendDatadog(destination.settings, destination.credentials, batch, policy);
      case "s3":
        return await sendS3(destination.settings, destination.credentials, batch, policy);
    }
  } catch (error) {
    return failureOfError(error);
  }
}

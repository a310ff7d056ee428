// The Datadog Logs destination: the batch as log entries POSTed to `<url>/api/v2/logs` with the
// API key in DD-API-KEY (docs/audit-stream-format.md). The intake takes at most 1,000 entries and
// 5 MB per request, so a larger batch goes as several requests, in order; when one fails the batch
// fails and is sent again whole (receivers drop duplicates by the event's `id`).
import { failed } from "~/audit-streams/outbound/failure-of-error.server";
import { splitIntoBodies } from "~/audit-streams/outbound/request-bodies";
import { safeRequest } from "~/audit-streams/outbound/safe-request.server";
import type { DestinationCredentials, DestinationSettings } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamBatch, StreamEvent } from "~/audit-streams/stream-event";

export const DATADOG_LOGS_PATH = "/api/v2/logs";
export const DATADOG_MAX_ENTRIES = 1000;
/** Datadog's 5 MB, less a margin (the splitter counts the array's brackets and commas itself). */
export const DATADOG_MAX_BYTES = 5 * 1024 * 1024 - 64 * 1024;
export const DATADOG_SOURCE = "keyledger";
export const DATADOG_DEFAULT_SERVICE = "keyledger";

/** A line a person reads in the Log Explorer: what happened, by whom, to what. */
export function datadogMessage(event: StreamEvent): string {
  const actor = event.actorName ?? `${event.actorKind} ${event.actorId}`;
  const target = event.targetName ? `${event.targetType} "${event.targetName}"` : `${event.targetType} ${event.targetId}`;
  return `${event.action} by ${actor} on ${target}`;
}

/** One log entry: Datadog's reserved attributes, then the event's fields as the entry's attributes. */
export function datadogEntry(event: StreamEvent, settings: DestinationSettings<"datadog">, organizationId: string) {
  return {
    ddsource: DATADOG_SOURCE,
    service: settings.service ?? DATADOG_DEFAULT_SERVICE,
    ddtags: [`organization_id:${organizationId}`, ...(settings.tags ? settings.tags.split(",").filter(Boolean) : [])].join(","),
    message: datadogMessage(event),
    // Datadog takes `date` as the log's timestamp; without it, the time of arrival would be used.
    date: event.createdAt,
    ...event,
  };
}

/** The entries, serialized, in requests within Datadog's limits, in order (the shared splitter). */
export function datadogBodies(entries: string[]): string[] {
  const limit = { maxBytes: DATADOG_MAX_BYTES, maxEntries: DATADOG_MAX_ENTRIES, envelopeBytes: 2, separatorBytes: 1 };
  return splitIntoBodies(entries, (entry) => Buffer.byteLength(entry), limit).map((group) => `[${group.join(",")}]`);
}

export async function sendDatadog(
  settings: DestinationSettings<"datadog">,
  credentials: Partial<DestinationCredentials<"datadog">>,
  batch: StreamBatch,
  policy: OutboundPolicy,
): Promise<SendResult> {
  if (!credentials.apiKey) return failed("rejected", "no API key stored");
  if (batch.events.length === 0) return { ok: true, status: null };
  const url = new URL(settings.url);
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path.endsWith(DATADOG_LOGS_PATH) ? path : `${path}${DATADOG_LOGS_PATH}`;
  const entries = batch.events.map((event) => JSON.stringify(datadogEntry(event, settings, batch.organizationId)));
  let status: number | null = null;
  for (const body of datadogBodies(entries)) {
    const answer = await safeRequest(
      {
        url: url.toString(),
        method: "POST",
        headers: { "dd-api-key": credentials.apiKey, "content-type": "application/json" },
        body,
      },
      policy,
    );
    if (!answer.ok) return answer;
    status = answer.status;
  }
  return { ok: true, status };
}

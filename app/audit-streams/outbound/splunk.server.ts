// The Splunk HTTP Event Collector destination: one POST of the batch's events to
// `<url>/services/collector/event`, each a HEC event object (docs/audit-stream-format.md). HEC
// answers 200 `{"text":"Success","code":0}`; a 2xx whose `code` is not 0 is a refusal.
import { failed } from "~/audit-streams/outbound/failure-of-error.server";
import { safeRequest } from "~/audit-streams/outbound/safe-request.server";
import type { DestinationCredentials, DestinationSettings } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamBatch, StreamEvent } from "~/audit-streams/stream-event";

export const SPLUNK_EVENT_PATH = "/services/collector/event";
export const SPLUNK_SOURCE = "keyledger";
export const SPLUNK_DEFAULT_SOURCETYPE = "keyledger:audit";

/** The collector's URL: the address as typed when it already ends in the event path, else with it. */
export function splunkEndpoint(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, "");
  parsed.pathname = path.endsWith(SPLUNK_EVENT_PATH) ? path : `${path}${SPLUNK_EVENT_PATH}`;
  return parsed.toString();
}

/** One HEC event: `time` in epoch seconds with milliseconds, the stream event as `event`. */
export function splunkEvent(event: StreamEvent, settings: DestinationSettings<"splunk">) {
  return {
    time: Date.parse(event.createdAt) / 1000,
    source: SPLUNK_SOURCE,
    sourcetype: settings.sourcetype ?? SPLUNK_DEFAULT_SOURCETYPE,
    ...(settings.index ? { index: settings.index } : {}),
    event,
  };
}

/** HEC's acknowledgement code, when the body is the JSON HEC sends. */
function hecCode(body: Buffer): { code: number; text: string } | null {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as { code?: unknown }).code === "number") {
      const { code, text } = parsed as { code: number; text?: unknown };
      return { code, text: typeof text === "string" ? text.slice(0, 80) : "" };
    }
  } catch {
    // Not HEC's JSON (a proxy in front of it, say): the status alone decides.
  }
  return null;
}

export async function sendSplunk(
  settings: DestinationSettings<"splunk">,
  credentials: Partial<DestinationCredentials<"splunk">>,
  batch: StreamBatch,
  policy: OutboundPolicy,
): Promise<SendResult> {
  if (!credentials.token) return failed("rejected", "no HEC token stored");
  if (batch.events.length === 0) return { ok: true, status: null };
  // HEC takes events one after another in one body (its "batched" form), each a JSON object.
  const body = batch.events.map((event) => JSON.stringify(splunkEvent(event, settings))).join("\n");
  const answer = await safeRequest(
    {
      url: splunkEndpoint(settings.url),
      method: "POST",
      headers: {
        authorization: `Splunk ${credentials.token}`,
        "content-type": "application/json",
        // Needed by collectors with indexer acknowledgement on, ignored by the others: one channel per stream.
        "x-splunk-request-channel": batch.streamId,
      },
      body,
    },
    policy,
  );
  if (!answer.ok) return answer;
  const hec = hecCode(answer.body);
  if (hec && hec.code !== 0) return failed("rejected", `HEC code ${hec.code}${hec.text ? ` (${hec.text})` : ""}`, answer.status);
  return { ok: true, status: answer.status };
}

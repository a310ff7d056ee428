// The Splunk HTTP Event Collector destination: one POST of the batch's events (several in order
// when larger than the request cap) to `<url>/services/collector/event`, each a HEC event object
// (docs/audit-stream-format.md). HEC answers 200 `{"text":"Success","code":0}`; a 2xx whose `code`
// is not 0 is a refusal.
import { failed } from "~/audit-streams/outbound/failure-of-error.server";
import { REQUEST_MAX_BYTES, splitIntoBodies } from "~/audit-streams/outbound/request-bodies";
import { safeRequest } from "~/audit-streams/outbound/safe-request.server";
import type { DestinationCredentials, DestinationSettings } from "~/audit-streams/destinations";
import type { OutboundPolicy, SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamBatch, StreamEvent } from "~/audit-streams/stream-event";

export const SPLUNK_EVENT_PATH = "/services/collector/event";
export const SPLUNK_SOURCE = "keyledger";
export const SPLUNK_DEFAULT_SOURCETYPE = "keyledger:audit";

/**
 * The collector's event endpoint from the address as typed: the base (`https://splunk:8088`), the
 * collector's path (`…/services/collector`) or the event path itself all lead to
 * `…/services/collector/event`; a query string (Splunk Cloud's `?channel=`) is kept.
 */
export function splunkEndpoint(url: string): string {
  const parsed = new URL(url);
  const base = parsed.pathname.replace(/\/+$/, "").replace(/\/services\/collector(?:\/event)?$/, "");
  parsed.pathname = `${base}${SPLUNK_EVENT_PATH}`;
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
  // HEC takes events one after another in one body (its "batched" form), each a JSON object; a
  // batch larger than the request cap goes as several bodies, in order, and the first that fails
  // fails the batch (sent again whole: HEC keeps what it took, so some events arrive twice).
  const lines = batch.events.map((event) => JSON.stringify(splunkEvent(event, settings)));
  const limit = { maxBytes: REQUEST_MAX_BYTES, envelopeBytes: 0, separatorBytes: 1 };
  let status: number | null = null;
  for (const group of splitIntoBodies(lines, (line) => Buffer.byteLength(line), limit)) {
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
        body: group.join("\n"),
      },
      policy,
    );
    if (!answer.ok) return answer;
    const hec = hecCode(answer.body);
    if (hec && hec.code !== 0) return failed("rejected", `HEC code ${hec.code}${hec.text ? ` (${hec.text})` : ""}`, answer.status);
    status = answer.status;
  }
  return { ok: true, status };
}

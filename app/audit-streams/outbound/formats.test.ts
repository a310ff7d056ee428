import { gunzipSync } from "node:zlib";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { datadogMessage } from "~/audit-streams/outbound/datadog.server";
import { s3ObjectBody, s3Objects } from "~/audit-streams/outbound/s3.server";
import { splunkEndpoint } from "~/audit-streams/outbound/splunk.server";
import { webhookHeaders, webhookMessageId } from "~/audit-streams/outbound/webhook.server";
import type { StreamBatch, StreamEvent } from "~/audit-streams/stream-event";

const event = (id: string, createdAt: string, extra: Partial<StreamEvent> = {}): StreamEvent => ({
  id,
  createdAt,
  action: "member.removed",
  actorKind: "system",
  actorId: "system",
  actorName: null,
  targetType: "member",
  targetId: "t-1",
  targetName: null,
  details: {},
  ...extra,
});
const batch = (events: StreamEvent[]): StreamBatch => ({ organizationId: "org", streamId: "stream", type: "audit.events", events });

describe("each destination's format", () => {
  it("signs webhooks so the Standard Webhooks library verifies them, with a message id fixed by the batch", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = '{"type":"audit.events","version":1,"data":[]}';
    const headers = webhookHeaders(secret, "msg_1", body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    const events = [event("a", "2026-01-01T00:00:00.000Z"), event("b", "2026-01-01T00:00:01.000Z")];
    expect(webhookMessageId(batch(events))).toBe(webhookMessageId(batch([...events])));
    expect(webhookMessageId(batch(events))).not.toBe(webhookMessageId(batch(events.slice(0, 1))));
  });

  it.each([
    ["https://splunk.example.com:8088", "https://splunk.example.com:8088/services/collector/event"],
    ["https://splunk.example.com:8088/", "https://splunk.example.com:8088/services/collector/event"],
    ["https://splunk.example.com/services/collector", "https://splunk.example.com/services/collector/event"],
    ["https://splunk.example.com/services/collector/event/", "https://splunk.example.com/services/collector/event"],
    ["https://proxy.example.com/splunk?channel=x", "https://proxy.example.com/splunk/services/collector/event?channel=x"],
  ])("sends Splunk events from %s to %s", (typed, endpoint) => {
    expect(splunkEndpoint(typed)).toBe(endpoint);
  });

  it("writes a Datadog message a person reads, with ids where names are unknown", () => {
    expect(datadogMessage(event("a", "2026-01-01T00:00:00.000Z"))).toBe("member.removed by system system on member t-1");
  });

  it("groups S3 objects by UTC hour in stream order, even when creation times are not in that order", () => {
    // Commit order can put a later-created event first: its transaction committed first.
    const events = [
      event("e1", "2026-03-01T09:00:05.000Z"),
      event("e2", "2026-03-01T08:59:59.000Z"),
      event("e3", "2026-03-01T09:10:00.000Z"),
    ];
    const objects = s3Objects(batch(events), "logs/");
    expect(objects.map((o) => [o.key, o.events.map((e) => e.id)])).toEqual([
      ["logs/org/2026/03/01/09/e1-e3.ndjson.gz", ["e1", "e3"]],
      ["logs/org/2026/03/01/08/e2-e2.ndjson.gz", ["e2"]],
    ]);
    const body = s3ObjectBody(objects[0]!.events);
    expect(body.equals(s3ObjectBody(objects[0]!.events))).toBe(true);
    expect(
      gunzipSync(body)
        .toString("utf8")
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as StreamEvent).id),
    ).toEqual(["e1", "e3"]);
  });
});

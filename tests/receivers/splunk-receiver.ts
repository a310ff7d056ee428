// A receiver shaped like Splunk's HTTP Event Collector: POST /services/collector/event with
// `Authorization: Splunk <token>`, a body of JSON event objects one after another, each with a
// numeric `time`, `source`, `sourcetype` and an object `event`. Answers as HEC does: 200
// {"text":"Success","code":0}, 401 code 2/3 for a missing or wrong token, 400 code 6 for bad data.
import { startReceiver, type ReceiverAnswer, type TestReceiver } from "./http-receiver.ts";

export interface HecEvent {
  time: number;
  source: string;
  sourcetype: string;
  index?: string;
  event: Record<string, unknown>;
}

export interface SplunkReceiver extends TestReceiver {
  events: HecEvent[];
  /** Makes the next answers HEC's 200 with another code (e.g. 9, "Server is busy"), until set to null. */
  answerCode: number | null;
}

const hec = (status: number, code: number, text: string): ReceiverAnswer => ({ status, body: JSON.stringify({ text, code }) });

/** The concatenated JSON objects of a HEC body, or null when it is not that. */
function parseEvents(body: string): HecEvent[] | null {
  const events: HecEvent[] = [];
  for (const line of body.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line) as Partial<HecEvent>;
      const ok =
        typeof value.time === "number" &&
        typeof value.source === "string" &&
        typeof value.sourcetype === "string" &&
        (value.index === undefined || typeof value.index === "string") &&
        typeof value.event === "object" &&
        value.event !== null;
      if (!ok) return null;
      events.push(value as HecEvent);
    } catch {
      return null;
    }
  }
  return events.length > 0 ? events : null;
}

export async function startSplunkReceiver(token: string, options: { bodyLimit?: number } = {}): Promise<SplunkReceiver> {
  const own: Pick<SplunkReceiver, "events" | "answerCode"> = { events: [], answerCode: null };
  const receiver = await startReceiver({
    bodyLimit: options.bodyLimit,
    handler(request) {
      if (request.method !== "POST" || request.path !== "/services/collector/event")
        return hec(404, 404, "The requested URL was not found on this server.");
      const authorization = request.headers.authorization;
      if (!authorization) return hec(401, 2, "Token is required");
      if (authorization !== `Splunk ${token}`) return hec(403, 4, "Invalid token");
      const events = parseEvents(request.body.toString("utf8"));
      if (!events) return hec(400, 6, "Invalid data format");
      if (own.answerCode !== null) return hec(200, own.answerCode, "Server is busy");
      own.events.push(...events);
      return hec(200, 0, "Success");
    },
  });
  return Object.assign(own, receiver);
}

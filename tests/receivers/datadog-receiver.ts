// A receiver shaped like Datadog's logs intake (v2): POST /api/v2/logs with DD-API-KEY and
// Content-Type application/json, a JSON array of at most 1,000 entries and 5 MB, each with
// `ddsource`, `service`, `ddtags` and `message`. Answers as the intake does: 202 `{}`, 403 for a
// wrong key, 400 for a body it cannot take, 413 for one too large.
import { startReceiver, type ReceiverAnswer, type TestReceiver } from "./http-receiver.ts";

export interface DatadogEntry {
  ddsource: string;
  service: string;
  ddtags: string;
  message: string;
  [attribute: string]: unknown;
}

export interface DatadogReceiver extends TestReceiver {
  entries: DatadogEntry[];
}

const answer = (status: number, body: unknown): ReceiverAnswer => ({ status, body: JSON.stringify(body) });

function isEntry(value: unknown): value is DatadogEntry {
  if (typeof value !== "object" || value === null) return false;
  const entry = value as Record<string, unknown>;
  return ["ddsource", "service", "ddtags", "message"].every((field) => typeof entry[field] === "string");
}

export async function startDatadogReceiver(apiKey: string): Promise<DatadogReceiver> {
  const own: Pick<DatadogReceiver, "entries"> = { entries: [] };
  const receiver = await startReceiver({
    handler(request) {
      if (request.method !== "POST" || request.path !== "/api/v2/logs") return answer(404, { errors: ["Not found"] });
      if (request.headers["dd-api-key"] !== apiKey) return answer(403, { errors: ["Forbidden"] });
      if (!String(request.headers["content-type"]).startsWith("application/json")) return answer(400, { errors: ["Bad content type"] });
      if (request.body.length > 5 * 1024 * 1024) return answer(413, { errors: ["Payload too large"] });
      let body: unknown;
      try {
        body = JSON.parse(request.body.toString("utf8"));
      } catch {
        return answer(400, { errors: ["Malformed JSON"] });
      }
      if (!Array.isArray(body) || body.length === 0 || body.length > 1000 || !body.every(isEntry)) {
        return answer(400, { errors: ["Bad request"] });
      }
      own.entries.push(...body);
      return answer(202, {});
    },
  });
  return Object.assign(own, receiver);
}

// A Standard Webhooks receiver: verifies each delivery's signature with the `standardwebhooks`
// package (as a customer's receiver would), answers 401 to a bad or missing one, and records the
// verified payloads. `answer` lets a test make it fail on purpose (500 while the test wants it).
import { Webhook } from "standardwebhooks";
import type { StreamEvent } from "~/audit-streams/stream-event";
import { startReceiver, type ReceiverAnswer, type ReceivedRequest, type TestReceiver } from "./http-receiver.ts";

export interface WebhookPayload {
  type: string;
  version: number;
  data: StreamEvent[];
}

export interface WebhookReceiver extends TestReceiver {
  /** The verified deliveries in the order they arrived, with their webhook-id. */
  deliveries: { id: string; payload: WebhookPayload }[];
  /** Requests refused for their signature. */
  refused: ReceivedRequest[];
  /** Replaces the answer to verified deliveries (default 204); return null to accept. */
  answer: ((payload: WebhookPayload) => ReceiverAnswer | null) | null;
}

export async function startWebhookReceiver(
  secret: string,
  options: { tls?: "valid" | false; bodyLimit?: number } = {},
): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  // What the handler reads and the test sets; the server's own fields are added once it listens.
  const own: Pick<WebhookReceiver, "deliveries" | "refused" | "answer"> = { deliveries: [], refused: [], answer: null };
  const receiver = await startReceiver({
    tls: options.tls ?? "valid",
    bodyLimit: options.bodyLimit,
    handler(request) {
      let payload: WebhookPayload;
      try {
        const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
        payload = verifier.verify(request.body.toString("utf8"), headers) as WebhookPayload;
      } catch {
        own.refused.push(request);
        return { status: 401, body: '{"error":"bad signature"}' };
      }
      const custom = own.answer?.(payload);
      if (custom) return custom;
      own.deliveries.push({ id: String(request.headers["webhook-id"]), payload });
      return { status: 204 };
    },
  });
  return Object.assign(own, receiver);
}

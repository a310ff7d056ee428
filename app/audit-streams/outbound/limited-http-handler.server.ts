// The S3 SDK's HTTP handler with this module's limits: its connections come from the guarded
// agents (the address check on every connection, guarded-connection.server.ts) and every answer's
// body passes through a counter that fails the read past the policy's bytes, so a hostile
// S3-compatible endpoint cannot make the SDK buffer a huge answer.
import { Readable, Transform } from "node:stream";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { ResponseTooLargeError } from "~/audit-streams/outbound/failure-of-error.server";
import { guardedAgents } from "~/audit-streams/outbound/guarded-connection.server";
import type { OutboundPolicy } from "~/audit-streams/outbound/send-result";

function limited(body: Readable, maxBytes: number): Readable {
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) {
        body.destroy();
        return callback(new ResponseTooLargeError(maxBytes));
      }
      callback(null, chunk);
    },
  });
  body.on("error", (error) => counter.destroy(error));
  return body.pipe(counter);
}

class LimitedHttpHandler extends NodeHttpHandler {
  constructor(
    private readonly policy: OutboundPolicy,
    // Agents of its own: the SDK client's destroy() may end them, and no other request may share them.
    agents = guardedAgents(policy.allowPrivateNetworks),
  ) {
    super({
      httpAgent: agents.http,
      httpsAgent: agents.https,
      connectionTimeout: policy.timeoutMs,
      requestTimeout: policy.timeoutMs,
    });
  }

  override async handle(...args: Parameters<NodeHttpHandler["handle"]>): ReturnType<NodeHttpHandler["handle"]> {
    const result = await super.handle(...args);
    const body: unknown = result.response.body;
    if (body instanceof Readable) result.response.body = limited(body, this.policy.maxResponseBytes);
    return result;
  }
}

export function limitedHttpHandler(policy: OutboundPolicy): NodeHttpHandler {
  return new LimitedHttpHandler(policy);
}

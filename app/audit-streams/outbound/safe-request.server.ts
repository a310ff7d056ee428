// One outbound request from an audit stream, with every limit the issue asks for (docs/decisions/
// 0054-stream-outbound.md): https only unless private networks are allowed, the address checked on
// the connection (guarded-connection.server.ts), no redirect followed, the whole request bounded in
// time from the first lookup to the last byte (a receiver that accepts and never answers, or
// trickles its answer, is cut), the answer's body read up to the limit and the connection destroyed
// past it (a 1 GB answer is never buffered), TLS verified by Node's defaults.
import http from "node:http";
import https from "node:https";
import {
  failed,
  failureOfError,
  OutboundTimeoutError,
  ResponseTooLargeError,
  resultOfStatus,
  type SendFailure,
} from "~/audit-streams/outbound/failure-of-error.server";
import { guardedAgents } from "~/audit-streams/outbound/guarded-connection.server";
import type { OutboundPolicy } from "~/audit-streams/outbound/send-result";

export interface OutboundRequest {
  url: string;
  method: "POST" | "PUT";
  headers: Record<string, string>;
  body: string | Buffer;
}

/** A 2xx answer with its body (at most the policy's bytes), or the attempt's failure. */
export type OutboundAnswer = { ok: true; status: number; body: Buffer } | SendFailure;

export const USER_AGENT = "KeyLedger-AuditStream/1";

const agentsByPolicy = { open: guardedAgents(true), guarded: guardedAgents(false) };

/** The agent whose connections pass the policy's address check. */
export function agentsFor(policy: OutboundPolicy) {
  return policy.allowPrivateNetworks ? agentsByPolicy.open : agentsByPolicy.guarded;
}

/** Refuses what the URL alone tells: a scheme other than https (http only with private networks allowed). */
export function schemeRefusal(url: URL, policy: OutboundPolicy): SendFailure | null {
  if (url.protocol === "https:" || (url.protocol === "http:" && policy.allowPrivateNetworks)) return null;
  return failed("address_refused", `${url.protocol}// is refused, only https:// is allowed`);
}

export function safeRequest(request: OutboundRequest, policy: OutboundPolicy): Promise<OutboundAnswer> {
  const url = URL.parse(request.url);
  if (!url) return Promise.resolve(failed("network", "not a valid URL"));
  const refused = schemeRefusal(url, policy);
  if (refused) return Promise.resolve(refused);
  const body = typeof request.body === "string" ? Buffer.from(request.body) : request.body;
  const agents = agentsFor(policy);
  const send = url.protocol === "https:" ? https.request : http.request;

  return new Promise<OutboundAnswer>((resolve) => {
    let settled = false;
    let req: http.ClientRequest | undefined;
    const settle = (answer: OutboundAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(answer);
    };
    const fail = (error: unknown) => settle(failureOfError(error));
    // One clock for the whole request: lookup, connect, TLS, upload, waiting, and reading the answer.
    const timer = setTimeout(() => fail(new OutboundTimeoutError(policy.timeoutMs)), policy.timeoutMs);

    try {
      req = send({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        agent: url.protocol === "https:" ? agents.https : agents.http,
        headers: { "user-agent": USER_AGENT, ...request.headers, "content-length": String(body.length) },
      });
    } catch (error) {
      // Node refuses some options synchronously (a header value with a line break): nothing was sent.
      return fail(error);
    }

    req.on("error", fail);
    req.on("response", (res) => {
      res.on("error", fail);
      const status = res.statusCode ?? 0;
      const verdict = resultOfStatus(status);
      if (!verdict.ok) {
        // Neither a redirect's target nor an error page is read: the status says all we record.
        res.destroy();
        return settle(verdict);
      }
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > policy.maxResponseBytes) {
        res.destroy();
        return fail(new ResponseTooLargeError(policy.maxResponseBytes));
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received > policy.maxResponseBytes) {
          res.destroy();
          return fail(new ResponseTooLargeError(policy.maxResponseBytes));
        }
        chunks.push(chunk);
      });
      res.on("end", () => settle({ ok: true, status, body: Buffer.concat(chunks) }));
      res.on("close", () => {
        if (!res.complete) fail(Object.assign(new Error("closed mid-answer"), { code: "ECONNRESET" }));
      });
    });
    req.end(body);
  });
}

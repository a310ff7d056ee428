// A small HTTP(S) server for the receivers: records every request it got (method, path, headers,
// body) and answers through the handler it was given. Listens on 127.0.0.1 on a free port; with
// `tls` it serves the test CA's certificate (or the expired one).
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { testCertificates } from "./certificates.ts";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface ReceiverAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type Handler = (request: ReceivedRequest) => ReceiverAnswer;
/** A handler that writes the answer itself (hostile receivers); the body is not read first. */
export type RawHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface TestReceiver {
  /** `https://127.0.0.1:<port>` (or http://). */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  stop(): Promise<void>;
}

export interface ReceiverOptions {
  tls?: "valid" | "expired" | false;
  /** Without a handler every request is answered 200 `{}`. */
  handler?: Handler;
  raw?: RawHandler;
  /**
   * Refuses a body longer than this many bytes with 413 before the handler sees it, as Express's
   * body-parser does past its limit (default `100kb`, 102,400 bytes).
   */
  bodyLimit?: number;
  /** Listens on this port (a receiver started again where a stopped one was); a free one otherwise. */
  port?: number;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const handler: Handler = options.handler ?? (() => ({ status: 200, body: "{}" }));
  const listener: http.RequestListener = (req, res) => {
    if (options.raw) return options.raw(req, res);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(request);
      const tooLarge = options.bodyLimit !== undefined && request.body.length > options.bodyLimit;
      const answer = tooLarge ? { status: 413, body: '{"error":"request entity too large"}' } : handler(request);
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(answer.body ?? "");
    });
  };
  const tlsMode = options.tls ?? "valid";
  const server = tlsMode ? https.createServer(testCertificates()[tlsMode], listener) : http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${tlsMode ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

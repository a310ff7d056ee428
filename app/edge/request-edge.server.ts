// The request edge: every HTTP request passes here first, on the production server and on the dev
// server alike (server/). It owns what must hold for every request, whatever route it reaches:
// - a request id (in every log line, the X-Request-Id response header and the correlationId of
//   every audit event the request records) and one log line per request;
// - /metrics, when METRICS_TOKEN is set, and the request metrics (./metrics-endpoint.server.ts);
// - the request line and Host are valid (400), the method is one we serve (405 with Allow;
//   /rpc takes POST only);
// - the auth layer's raw organization routes do not exist (404, every method);
// - bodies stay under a limit, chunked or not, without buffering more than the limit (413);
// - cookie-authenticated page writes come from our own pages (403; /rpc checks per procedure);
// - baseline security headers;
// - no error in one request can end the process: everything runs inside one catch, and an error
//   is logged with the request id and answered with a translated 500;
// - while the database is unavailable, 503 with Retry-After instead of 500, one warn line per
//   request (app/edge/unavailable-reply.server.ts, docs/decisions/0036-database-outages-answer-503.md).
import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequestHandler, type ServerBuild } from "react-router";
import { applicationOrigin, isCrossSiteRequest } from "~/web/cross-site.server";
import { createLoadContext } from "~/web/context.server";
import { env, isHttpsDeployment } from "~/env.server";
import { isSafeCorrelationId } from "~/lib/correlation-id";
import { logRequestError, logRequestLine, noteDatabaseUnavailable, type RequestLog } from "~/lib/logger.server";
import { readAfterLsnFrom, readYourWritesCookie } from "~/lib/read-routing.server";
import { recordedChange, runWithCorrelationId } from "~/lib/request-scope.server";
import { methodNotAllowed } from "~/lib/method-not-allowed";
import { headersFromNode } from "~/lib/node-headers";
import { AUTHENTICATE_PATH } from "~/rpc/api-key-authenticate.server";
import { handleRpcNodeRequest, MAX_RPC_BODY_BYTES, RPC_PREFIX } from "~/rpc/handler.server";
import { authenticateDoor, takesAuthenticateDoor } from "./authenticate-door.server";
import { isJsonContentType, readLimitedBody, type BodyRead } from "./body.server";
import { answerHealthProbe, closeConnectionWhileDraining, drainingHeaders, isHealthProbe } from "./health-probes.server";
import { metricsEndpoint } from "./metrics-endpoint.server";
import { sendEdgeReply, type EdgeReply } from "./replies.server";
import { DATABASE_UNAVAILABLE_REPLY, databaseOutageReply } from "./unavailable-reply.server";
import { resolveRequestTarget } from "./request-target";
import { METRICS_PATH } from "./route-family.server";
import { baselineSecurityHeaders } from "./security-headers";
import type { RequestListener } from "node:http";

/** No form of ours comes near this; a huge form (or password) would tie up a core to parse. */
const MAX_PAGE_BODY_BYTES = 1024 * 1024;

/** What pages answer, and what /rpc answers (every procedure is a POST). OPTIONS gets the Allow
 * list here; no CORS is offered. */
const PAGE_METHODS = ["GET", "HEAD", "POST", "OPTIONS"];
/** A page's data URL (`/x.data`, what React Router's client fetches): React Router runs its loaders
 * as a GET whatever the method, so a HEAD there would run them (and what they record, such as the
 * support console's views) for an answer without a body. */
const DATA_METHODS = ["GET", "POST", "OPTIONS"];
const RPC_METHODS = ["POST", "OPTIONS"];

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface RequestEdgeOptions {
  build: ServerBuild;
  mode: "production" | "development";
  /** Take the client address and request id from the proxy's headers (TRUST_PROXY). */
  trustProxy: boolean;
  /** Serves files (the build's assets, or Vite in development); calls `next` for anything else. */
  files?: Middleware;
}

/** The auth layer's raw organization routes are disabled: 404 for every method, reads included.
 * The typed organization procedures at /rpc are the only way in. */
function isDisabledPath(pathname: string): boolean {
  return pathname === "/api/auth/organization" || pathname.startsWith("/api/auth/organization/");
}

/** The proxy's X-Request-Id when TRUST_PROXY vouches for it and it is a safe correlation id (it
 * becomes the audit events' correlationId), else a new UUID. */
function requestIdOf(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers["x-request-id"];
  return trustProxy && typeof forwarded === "string" && isSafeCorrelationId(forwarded) ? forwarded : randomUUID();
}

/** Behind the proxy TRUST_PROXY vouches for, the client is the last X-Forwarded-For entry: the one
 * that proxy appended. Entries before it are whatever the client chose to send, so taking the
 * first would let anyone pick a fresh address (and a fresh rate-limit budget) per request. */
function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.at(-1) : forwarded)?.split(",").at(-1)?.trim();
    if (last) return last.slice(0, 64);
  }
  return req.socket.remoteAddress ?? "unknown";
}

/** How long a response may wait for the client to take more of it. */
const WRITE_STALL_MS = 120_000;

/** Writes a fetch Response to Node, streaming its body with backpressure. */
async function sendResponse(res: ServerResponse, response: Response, isHead: boolean, extraCookie: string | null): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (extraCookie) cookies.push(extraCookie);
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body || isHead) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once("close", cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value))
        await new Promise<void>((resolve) => {
          // A client that takes nothing for this long is cut off, so a streamed answer (the audit
          // export) cannot hold its database connection forever.
          const stalled = setTimeout(() => res.destroy(), WRITE_STALL_MS);
          const settle = () => {
            clearTimeout(stalled);
            res.off("drain", settle);
            res.off("close", settle);
            resolve();
          };
          res.once("drain", settle);
          res.once("close", settle);
        });
    }
  } finally {
    res.off("close", cancel);
  }
  res.end();
}

export function createRequestEdge(options: RequestEdgeOptions): RequestListener {
  const handleDocument = createRequestHandler(options.build, options.mode);
  const appOrigin = env().APP_ORIGIN;
  const securityHeaders = baselineSecurityHeaders({ https: isHttpsDeployment() });
  const metrics = metricsEndpoint(env());

  /** `preread`: the body, when the authenticate door has read it already (./authenticate-door.server.ts). */
  /** How the edge builds a request's URL: on APP_ORIGIN when set, else on the Host and the socket's protocol. */
  const targetOptions = (req: IncomingMessage) => ({
    appOrigin,
    protocol: "encrypted" in req.socket && req.socket.encrypted ? ("https:" as const) : ("http:" as const),
  });

  async function serve(req: IncomingMessage, res: ServerResponse, scope: RequestLog, clientAddress: string, preread?: BodyRead) {
    const target = resolveRequestTarget(req.url, req.headers.host, targetOptions(req));
    const method = req.method ?? "GET";
    const isRpc = target.ok && target.url.pathname.startsWith(`${RPC_PREFIX}/`);
    const reply = (edgeReply: EdgeReply) => sendEdgeReply(req, res, edgeReply, { rpc: isRpc });
    /** The body, read up to `limit`; undefined once a 413 has answered or the client has gone. */
    const bodyWithin = async (limit: number) => {
      const read = preread ?? (await readLimitedBody(req, limit));
      if (read.ok) return read.body;
      if (read.reason === "tooLarge") reply({ status: 413, code: "PAYLOAD_TOO_LARGE", messageKey: "payloadTooLarge", close: true });
      return undefined;
    };
    if (!target.ok) return reply({ status: 400, code: "BAD_REQUEST", messageKey: "badRequestTarget", close: true });
    const url = target.url;
    scope.path = url.pathname.slice(0, 256);
    if (metrics && url.pathname === METRICS_PATH) return metrics.serve(req, res, reply);
    if (isDisabledPath(url.pathname)) return reply({ status: 404, code: "NOT_FOUND", messageKey: "notFound" });
    const allowed = isRpc ? RPC_METHODS : url.pathname.endsWith(".data") ? DATA_METHODS : PAGE_METHODS;
    if (!allowed.includes(method)) {
      return reply({ ...methodNotAllowed(allowed), close: true });
    }
    if (method === "OPTIONS") {
      res.writeHead(204, { Allow: allowed.join(", "), "Content-Length": "0" });
      res.end();
      return;
    }
    // Files and Vite see the request in origin form, whatever form it arrived in.
    req.url = `${url.pathname}${url.search}`;
    const isRead = method === "GET" || method === "HEAD";

    if (isRpc) {
      // Only POST gets here: oRPC would read any other method's body itself, with no limit.
      if (!isJsonContentType(req.headers["content-type"])) {
        return reply({ status: 415, code: "UNSUPPORTED_MEDIA_TYPE", messageKey: "unsupportedMediaType", close: true });
      }
      const body = await bodyWithin(MAX_RPC_BODY_BYTES);
      if (!body) return;
      if (body.length > 0) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString("utf8"));
        } catch {
          return reply({ status: 400, code: "BAD_REQUEST", messageKey: "invalidJson" });
        }
        // oRPC's Node adapter takes a body that was already read, as it does from body parsers.
        (req as IncomingMessage & { body?: unknown }).body = parsed;
      }
      return handleRpcNodeRequest(req, res, url, clientAddress, scope);
    }

    if (isRead && options.files) {
      const files = options.files;
      // A file middleware either answers (the response closes) or hands the request on.
      const answered = await new Promise<boolean>((resolve) => {
        res.once("close", () => resolve(true));
        files(req, res, () => resolve(false));
      });
      if (answered) return;
    }

    const headers = headersFromNode(req);
    let body: Buffer<ArrayBuffer> | undefined;
    if (!isRead) {
      if (isCrossSiteRequest(headers, applicationOrigin(url.href))) {
        return reply({ status: 403, code: "FORBIDDEN", messageKey: "crossSite", close: true });
      }
      body = await bodyWithin(MAX_PAGE_BODY_BYTES);
      if (!body) return;
    }
    const controller = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    const request = new Request(url, { method, headers, body, signal: controller.signal });
    const cspNonce = randomBytes(16).toString("base64");
    const response = await handleDocument(request, createLoadContext({ clientAddress, cspNonce, requestLog: scope }));
    const outage = databaseOutageReply(scope, response);
    if (outage) {
      void response.body?.cancel().catch(() => {});
      return reply(outage);
    }
    // A form post that succeeded may have written, and a GET may have recorded a change (an export
    // is recorded, support's views are): the next pages read a replica only once it has replayed
    // that. (A refused or failed request wrote nothing: its transaction rolled back.)
    const mayHaveWritten = (!isRead || recordedChange()) && response.status < 400;
    const readYourWrites = mayHaveWritten ? await readYourWritesCookie() : null;
    await sendResponse(res, response, method === "HEAD", readYourWrites);
  }

  /** What the edge adds to every answer: the baseline security headers and the request id. */
  function setEdgeHeaders(res: ServerResponse, requestId: string) {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    res.setHeader("X-Request-Id", requestId);
  }

  /** Everything but the authenticate door's plain requests: the baseline headers, the probes, the routes. */
  function general(req: IncomingMessage, res: ServerResponse, scope: RequestLog, fail: (error: unknown) => void, preread?: BodyRead) {
    setEdgeHeaders(res, scope.requestId);
    closeConnectionWhileDraining(res);
    if (!preread && answerHealthProbe(req, res, scope)) return;
    const readAfter = readAfterLsnFrom(req.headers.cookie);
    runWithCorrelationId(scope.requestId, () => serve(req, res, scope, clientAddressOf(req, options.trustProxy), preread), readAfter).catch(
      fail,
    );
  }

  return (req, res) => {
    const startedAt = performance.now();
    const scope: RequestLog = { requestId: requestIdOf(req, options.trustProxy), method: String(req.method).slice(0, 16), path: "-" };
    res.once("close", () => {
      const elapsed = performance.now() - startedAt;
      metrics?.observe(scope.path, res.statusCode, elapsed);
      const line = {
        ...scope,
        status: res.statusCode,
        durationMs: Math.round(elapsed * 10) / 10,
        ...(res.writableFinished ? {} : { aborted: true as const }),
      };
      // A database outage (503) is the database's, not ours: warn, with its reason (decision 0036).
      // A probe's 503 is the instance saying it is not ready, not an error of the app.
      if (scope.databaseUnavailable || (res.statusCode === 503 && !isHealthProbe(scope.path))) logRequestLine("warn", line);
      else if (res.statusCode >= 500 && !isHealthProbe(scope.path)) logRequestLine("error", line);
      else logRequestLine("info", line);
    });
    const fail = (error: unknown) => {
      const unavailable = noteDatabaseUnavailable(scope, error);
      if (!unavailable) logRequestError(scope, error, "request failed");
      try {
        // The door sets them with its answer; an error before that answer needs them here.
        if (!res.headersSent) setEdgeHeaders(res, scope.requestId);
        sendEdgeReply(
          req,
          res,
          unavailable ? DATABASE_UNAVAILABLE_REPLY : { status: 500, code: "INTERNAL_SERVER_ERROR", messageKey: "unexpected" },
          { rpc: scope.path.startsWith(`${RPC_PREFIX}/`) },
        );
      } catch {
        res.destroy();
      }
    };
    try {
      if (takesAuthenticateDoor(req, targetOptions(req))) {
        scope.path = AUTHENTICATE_PATH;
        const headers = { ...securityHeaders, "X-Request-Id": scope.requestId, ...drainingHeaders() };
        authenticateDoor(req, res, scope, headers, (read) => general(req, res, scope, fail, read)).catch(fail);
        return;
      }
      general(req, res, scope, fail);
    } catch (error) {
      fail(error);
    }
  };
}

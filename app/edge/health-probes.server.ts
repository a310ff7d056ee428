// `/livez` and `/readyz`, answered by the request edge before anything that needs a session, a
// route or (for /livez) the database (docs/decisions/0037-health-readiness-and-drain.md). Both are
// for orchestrators and load balancers: GET or HEAD, JSON, never cached. `/healthz` and `/ping`
// stay routes of their own, as the contract has them.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestLog } from "~/lib/logger.server";
import { isDraining } from "~/lib/lifecycle.server";
import { readiness } from "~/lib/readiness.server";

/** What a load balancer should wait before asking again when the instance is not ready. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

const PROBES = new Set(["/livez", "/readyz"]);

export function isHealthProbe(path: string): boolean {
  return PROBES.has(path);
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(text)),
    "Cache-Control": "no-store",
    ...headers,
  });
  res.end(req.method === "HEAD" ? undefined : text);
}

/**
 * Answers the request when it is a probe and returns true; false for every other request. The path
 * is read from the raw request line (a query string is allowed and ignored), so a probe never
 * depends on the Host header a kubelet or a load balancer happens to send.
 */
export function answerHealthProbe(req: IncomingMessage, res: ServerResponse, scope: RequestLog): boolean {
  const url = req.url ?? "";
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  if (!PROBES.has(path)) return false;
  scope.path = path;
  if (req.method !== "GET" && req.method !== "HEAD") {
    send(req, res, 405, { ok: false }, { Allow: "GET, HEAD" });
    return true;
  }
  if (path === "/livez") {
    send(req, res, 200, { ok: true });
    return true;
  }
  readiness()
    .then(({ ready, failing }) => {
      if (ready) send(req, res, 200, { ok: true });
      else send(req, res, 503, { ok: false, failing }, { "Retry-After": String(NOT_READY_RETRY_AFTER_SECONDS) });
    })
    .catch(() => send(req, res, 503, { ok: false, failing: ["database"] }, { "Retry-After": String(NOT_READY_RETRY_AFTER_SECONDS) }));
  return true;
}

/** While draining, every answer asks the client to close its connection, so keep-alive clients
 * (and the load balancer's pool) move to another instance before the listener closes. */
export function closeConnectionWhileDraining(res: ServerResponse): void {
  if (isDraining()) res.setHeader("Connection", "close");
}

/** The same, as headers for an answer written in one go (the authenticate door's). */
export function drainingHeaders(): Record<string, string> {
  return isDraining() ? { Connection: "close" } : {};
}

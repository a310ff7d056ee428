// The edge's door for apiKey.authenticate, the call integrators make on every request they serve
// (docs/decisions/0040-authenticate-profiled.md). The plain request, `POST /rpc/apiKey/authenticate`
// with a JSON body `{"json":{"scopes":[…]}}`, is answered here without the general path's
// per-request work (a URL object, headers set one by one, the async context, the route decisions,
// oRPC's layers), which cost more than the rest of the request together. It keeps what the edge
// promises every request: a valid Host, the body limit and JSON type, the request id (header and log
// line), the baseline security headers, Connection: close while draining, the metrics, the one catch.
// Anything else (another form of the URL, a body that is not the plain request, an error) goes the
// general way, with the body already read: the same answers (tests/integration/authenticate-doors.test.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestLog } from "~/lib/logger.server";
import { answerPlainAuthenticate, AUTHENTICATE_PATH, plainAuthenticateScopes } from "~/rpc/api-key-authenticate.server";
import { MAX_RPC_BODY_BYTES } from "~/rpc/handler.server";
import { isJsonContentType, readLimitedBody, type BodyRead } from "./body.server";
import { acceptsHost } from "./request-target";

/** Decided from the request line and headers alone, before a byte of the body is read; `target`:
 * what the edge builds URLs on (resolveRequestTarget's options). */
export function takesAuthenticateDoor(req: IncomingMessage, target: { appOrigin?: string; protocol: "http:" | "https:" }): boolean {
  if (req.method !== "POST" || req.url !== AUTHENTICATE_PATH) return false;
  const host = req.headers.host;
  return (host === undefined || acceptsHost(host, target)) && isJsonContentType(req.headers["content-type"]);
}

/** The scopes of the plain request, or null for anything else (not JSON included: the general way answers it, 400). */
function plainScopesOf(read: BodyRead) {
  if (!read.ok || read.body.length === 0) return null;
  try {
    return plainAuthenticateScopes(JSON.parse(read.body.toString("utf8")));
  } catch {
    return null;
  }
}

/**
 * Reads the body (within /rpc's limit) and answers the plain request; hands anything else, with the
 * body as read, to `general`. `headers`: the baseline security headers and the request id.
 */
export async function authenticateDoor(
  req: IncomingMessage,
  res: ServerResponse,
  scope: RequestLog,
  headers: Record<string, string>,
  general: (read: BodyRead) => void,
): Promise<void> {
  const read = await readLimitedBody(req, MAX_RPC_BODY_BYTES);
  const scopes = plainScopesOf(read);
  if (!scopes) return general(read);
  await answerPlainAuthenticate(req, res, scopes, scope, headers);
}

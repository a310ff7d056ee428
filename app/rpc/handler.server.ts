// Serves the router over oRPC's RPC protocol at /rpc: from Node's http server behind the request
// edge (app/edge, on the production and dev servers), or from a fetch Request (the integration
// tests call the procedures that way, with the same router, context and error translation).
import type { IncomingMessage, ServerResponse } from "node:http";
import { ORPCError } from "@orpc/server";
import { BodyLimitPlugin as FetchBodyLimit, RPCHandler as FetchRPCHandler } from "@orpc/server/fetch";
import { RPCHandler as NodeRPCHandler } from "@orpc/server/node";
import { ResponseHeadersPlugin } from "@orpc/server/plugins";
import { headersFromNode } from "~/lib/node-headers";
import { readSessionToken } from "~/auth/cookies.server";
import { logRequestError, type RequestLog } from "~/lib/logger.server";
import { readYourWritesCookie } from "~/lib/read-routing.server";
import { recordedChange } from "~/lib/request-scope.server";
import { createRpcContext, type RpcContext } from "./context.server";
import { router } from "./router.server";

/** Procedure inputs are small JSON objects (the request edge enforces this for the Node handler). */
export const MAX_RPC_BODY_BYTES = 64 * 1024;
export const RPC_PREFIX = "/rpc";

type Interceptor = NonNullable<ConstructorParameters<typeof FetchRPCHandler<RpcContext>>[1]>["interceptors"];

/** Requests whose procedure has started (see logUnexpectedErrors); anything thrown before that is
 * oRPC failing to decode the caller's envelope. */
const procedureStarted = new WeakSet<RpcContext>();

/** oRPC answers an unparsable body or envelope with an English message; say it in the caller's
 * language. */
const translateMalformedRequest: NonNullable<Interceptor>[number] = async (options) => {
  try {
    return await options.next();
  } catch (error) {
    const malformed = error instanceof SyntaxError || (!(error instanceof ORPCError) && !procedureStarted.has(options.context));
    if (!malformed) throw error;
    // The support namespace does not exist for anyone but platform admins, even when what they
    // send cannot be read (docs/decisions/0026-support-console.md).
    if (String(options.request.url.pathname).startsWith(`${RPC_PREFIX}/support/`) && !(await isPlatformAdminCaller(options.context)))
      throw new ORPCError("NOT_FOUND", { message: options.context.t("errors:notFound") });
    throw new ORPCError("BAD_REQUEST", {
      message: options.context.t(error instanceof SyntaxError ? "errors:invalidJson" : "errors:invalidInput"),
    });
  }
};

async function isPlatformAdminCaller(context: RpcContext): Promise<boolean> {
  return (await context.loadAuth().catch(() => null))?.user.isPlatformAdmin === true;
}

type ClientInterceptor = NonNullable<
  NonNullable<ConstructorParameters<typeof FetchRPCHandler<RpcContext>>[1]>["clientInterceptors"]
>[number];

/** A 500 inside a procedure is answered by oRPC as INTERNAL_SERVER_ERROR; say what it was in the
 * log. A client interceptor wraps the procedure call only, so a caller's malformed request (which
 * oRPC answers with 400 while decoding it) is not mistaken for a failure of ours. */
const logUnexpectedErrors: ClientInterceptor = async (options) => {
  procedureStarted.add(options.context);
  try {
    return await options.next();
  } catch (error) {
    if (!(error instanceof ORPCError) || error.status >= 500)
      logRequestError(options.context.requestLog, error instanceof ORPCError && error.cause ? error.cause : error, "procedure failed");
    throw error;
  }
};

/** A signed-in call that recorded a change (every change is audited) answers with the
 * read-your-writes cookie, so the caller's next reads come from a replica only once it has replayed
 * this call's writes (app/lib/read-routing.server.ts). Reads ask nothing more of the primary; calls
 * with an API key read nothing a replica serves. */
const readYourWrites: ClientInterceptor = async (options) => {
  const output = await options.next();
  if (recordedChange() && readSessionToken(options.context.headers.get("cookie"))) {
    const cookie = await readYourWritesCookie();
    if (cookie) options.context.resHeaders?.append("set-cookie", cookie);
  }
  return output;
};

/** No procedure's answer may be kept by a browser or a proxy: issue and rotate carry a key's secret
 * (shown once), a new audit stream its webhook secret, and the rest an organization's data. */
const neverCached: ClientInterceptor = async (options) => {
  options.context.resHeaders?.set("Cache-Control", "no-store");
  return options.next();
};

/** Served behind the request edge (app/edge), which has already read the body with its limit. */
const nodeHandler = new NodeRPCHandler(router, {
  plugins: [new ResponseHeadersPlugin()],
  interceptors: [translateMalformedRequest],
  clientInterceptors: [neverCached, logUnexpectedErrors, readYourWrites],
});
const fetchHandler = new FetchRPCHandler(router, {
  plugins: [new FetchBodyLimit({ maxBodySize: MAX_RPC_BODY_BYTES }), new ResponseHeadersPlugin()],
  interceptors: [translateMalformedRequest],
  clientInterceptors: [neverCached, logUnexpectedErrors, readYourWrites],
});

/** An unknown procedure: oRPC's error shape, in the caller's language. */
function notFoundBody(context: RpcContext) {
  return { json: { defined: false, code: "NOT_FOUND", status: 404, message: context.t("errors:notFound") } };
}

export async function handleRpcNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  clientAddress: string,
  requestLog: RequestLog,
): Promise<void> {
  const context = createRpcContext(url.href, headersFromNode(req), clientAddress, requestLog);
  const { matched } = await nodeHandler.handle(req, res, { prefix: RPC_PREFIX, context });
  if (!matched && !res.headersSent) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify(notFoundBody(context)));
  }
}

export async function handleRpcFetchRequest(request: Request, clientAddress: string): Promise<Response> {
  const context = createRpcContext(request.url, request.headers, clientAddress);
  const { matched, response } = await fetchHandler.handle(request, { prefix: RPC_PREFIX, context });
  return matched ? response : Response.json(notFoundBody(context), { status: 404 });
}

// The browser's typed client for /rpc (oRPC's RPCLink speaks the same `{"json": …}` protocol the
// server answers) and its TanStack Query helpers. Pages keep loading their data through loaders;
// this is for what a page loads on demand, such as an audit event's details. The session cookie
// goes along (same origin), and so does the browser's Sec-Fetch-Site, which the server checks.
import { createORPCClient } from "@orpc/client";
import { RPCLink } from "@orpc/client/fetch";
import type { RouterClient } from "@orpc/server";
import { createTanstackQueryUtils } from "@orpc/tanstack-query";
import type { Router } from "~/rpc/router.server";

function origin(): string {
  return typeof window === "undefined" ? "http://localhost" : window.location.origin;
}

const link = new RPCLink({ url: () => `${origin()}/rpc` });

export const rpcClient: RouterClient<Router> = createORPCClient(link);

/** Query options per procedure; their keys start with the procedure's path, so the tenant
 * (`auditLog.*`) and support (`support.auditLog.*`) namespaces never share a cache entry. */
export const rpcQueries = createTanstackQueryUtils(rpcClient);

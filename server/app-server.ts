// The production HTTP server: static files, the /rpc fast path, and React Router for the rest.
// /rpc is answered by oRPC's Node adapter before React Router sees the request, because the
// fetch-API emulation React Router needs costs more than the whole key check
// (docs/decisions/0003-rpc-fast-path.md). Both paths share the bundle's router and handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { join } from "node:path";
import { createRequestListener } from "@react-router/node";
import type { RouterContextProvider, ServerBuild } from "react-router";
import serveStatic from "serve-static";
import { headersFromNode } from "../app/lib/node-headers.ts";

interface EntryExtras {
  createLoadContext(clientAddress: string): RouterContextProvider;
  handleRpcNodeRequest(req: IncomingMessage, res: ServerResponse, clientAddress: string): Promise<void>;
  disconnectDb(): Promise<void>;
  rejectBeforeRouting(method: string, url: string, headers: Headers): Response | null;
}

export interface AppServer {
  server: Server;
  close(): Promise<void>;
}

function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first.slice(0, 64);
  }
  return req.socket.remoteAddress ?? "unknown";
}

async function sendResponse(res: ServerResponse, response: Response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function createAppServer(options: { buildDir: string; trustProxy: boolean }): Promise<AppServer> {
  const build = (await import(join(options.buildDir, "server", "index.js"))) as ServerBuild;
  const extras = build.entry.module as unknown as EntryExtras;
  const clientDir = join(options.buildDir, "client");
  const assets = serveStatic(join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: true });
  const publicFiles = serveStatic(clientDir, { maxAge: "1h", index: false, fallthrough: true });
  const pages = createRequestListener({
    build,
    mode: "production",
    getLoadContext: (_request, client) => extras.createLoadContext(client.address),
  });

  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    const clientAddress = clientAddressOf(req, options.trustProxy);
    if (url.startsWith("/rpc/")) {
      extras.handleRpcNodeRequest(req, res, clientAddress).catch((error: unknown) => {
        console.error("[rpc]", error);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ json: { defined: false, code: "INTERNAL_SERVER_ERROR", status: 500, message: "Internal server error" } }));
      });
      return;
    }
    const toPages = () => void pages(req, res);
    if (req.method !== "GET" && req.method !== "HEAD") {
      // Writes never touch static files; they pass the request gate (413, cross-site 403) first.
      // Reads skip it, so the common case builds no Headers object for it.
      const rejection = extras.rejectBeforeRouting(req.method ?? "POST", `http://${req.headers.host ?? "localhost"}${url}`, headersFromNode(req));
      if (rejection) void sendResponse(res, rejection);
      else toPages();
      return;
    }
    if (url.startsWith("/assets/")) {
      req.url = url.slice("/assets".length);
      assets(req, res, () => {
        req.url = url;
        toPages();
      });
      return;
    }
    publicFiles(req, res, toPages);
  });
  server.keepAliveTimeout = 65_000;

  return {
    server,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      await extras.disconnectDb();
    },
  };
}

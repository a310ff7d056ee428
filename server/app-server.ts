// The production HTTP server: Node's http server in front of the app bundle's request edge
// (app/edge/request-edge.server.ts), which validates every request, serves /rpc with oRPC's Node
// adapter (docs/decisions/0003-rpc-fast-path.md), files from build/client, and React Router for
// the rest. This file only wires them together; the rules live in the edge.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { ServerBuild } from "react-router";
import serveStatic from "serve-static";
import { serverHooksOf, type ServerHooks } from "../app/edge/server-hooks.ts";
import { collectWhenIdle, exposedGc } from "./idle-collection.ts";

export interface AppServer {
  server: Server;
  hooks: ServerHooks;
  close(): Promise<void>;
}

/** The public files outside assets/ (favicon.svg…), as URL paths: listed once, since the build
 * does not change while the server runs. */
function publicPaths(clientDir: string): Set<string> {
  const files = readdirSync(clientDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const paths = files.map((entry) => `/${relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join("/")}`);
  return new Set(paths.filter((path) => !path.startsWith("/assets/")));
}

/** The URL's path as a file path, or null when it cannot name one. */
function decodedPath(url: string): string | null {
  try {
    return decodeURIComponent(url.split("?")[0]!);
  } catch {
    return null;
  }
}

/**
 * build/client: fingerprinted assets cached for a year, other public files for an hour. A page's
 * path goes straight on: it names no file, and asking the file system first (a stat per page
 * request) cost 3% of a page's time (docs/decisions/0042-pages-at-dashboard-speed.md).
 */
function buildFiles(clientDir: string) {
  const assets = serveStatic(join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: true });
  const publicFiles = serveStatic(clientDir, { maxAge: "1h", index: false, fallthrough: true });
  const filePaths = publicPaths(clientDir);
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const url = req.url ?? "/";
    if (!url.startsWith("/assets/")) {
      const path = decodedPath(url);
      return path !== null && filePaths.has(path) ? publicFiles(req, res, () => next()) : next();
    }
    req.url = url.slice("/assets".length);
    assets(req, res, () => {
      req.url = url;
      next();
    });
  };
}

export async function createAppServer(options: { buildDir: string; trustProxy: boolean }): Promise<AppServer> {
  const build = (await import(join(options.buildDir, "server", "index.js"))) as ServerBuild;
  const hooks = serverHooksOf(build);
  const edge = hooks.createRequestEdge({
    build,
    mode: "production",
    trustProxy: options.trustProxy,
    files: buildFiles(join(options.buildDir, "client")),
  });
  // Before listening: the first requests must not pay for what every request needs warm, nor for
  // collecting what starting and warming left behind.
  await hooks.warmUp(build);
  const gc = exposedGc();
  gc();
  const idle = collectWhenIdle(gc);
  const server = createServer((req, res) => {
    idle.noteRequest();
    edge(req, res);
  });
  server.keepAliveTimeout = 65_000;
  return {
    server,
    hooks,
    close: async () => {
      idle.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      });
      await hooks.disconnectDb();
    },
  };
}

// The development server: the same request edge as production (app/edge/request-edge.server.ts),
// with Vite serving the modules, hot reload over the same port, and the bundle rebuilt on demand.
import { createServer, type Server } from "node:http";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import type { RequestListener } from "node:http";
import { serverHooksOf, type ServerHooks } from "../app/edge/server-hooks.ts";
import type { AppServer } from "./app-server.ts";

export async function createDevServer(options: { trustProxy: boolean }): Promise<AppServer> {
  const server: Server = createServer();
  const vite = await createViteServer({ server: { middlewareMode: true, hmr: { server } }, appType: "custom" });
  const edges = new WeakMap<ServerBuild, RequestListener>();
  /** Vite rebuilds the bundle on demand; the same object comes back until a file changes. */
  const loadBuild = async () => (await vite.ssrLoadModule("virtual:react-router/server-build")) as unknown as ServerBuild;
  // Loaded once up front, so a broken app fails at start and the process handlers have a logger.
  const hooks: ServerHooks = serverHooksOf(await loadBuild());

  server.on("request", (req, res) => {
    loadBuild()
      .then((build) => {
        let edge = edges.get(build);
        if (!edge) {
          edge = serverHooksOf(build).createRequestEdge({
            build,
            mode: "development",
            trustProxy: options.trustProxy,
            files: vite.middlewares,
          });
          edges.set(build, edge);
        }
        edge(req, res);
      })
      .catch((error: Error) => {
        // The bundle itself failed to build: show why, and keep the server up for the next edit.
        vite.ssrFixStacktrace(error);
        hooks.logger.error({ err: error }, "the app failed to build");
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        res.end(`The app failed to build:\n\n${error.stack ?? error.message}`);
      });
  });

  return {
    server,
    hooks,
    close: async () => {
      await vite.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await hooks.disconnectDb();
    },
  };
}

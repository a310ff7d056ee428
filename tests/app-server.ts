// The built app behind the real request edge, on a free port inside the test process: for
// integration tests that need real HTTP (streamed downloads, headers, the edge's refusals) while
// still reaching into the database and domain code directly. Static files are not served.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { ServerBuild } from "react-router";

export interface InProcessServer {
  origin: string;
  close(): Promise<void>;
}

export async function startInProcessServer(): Promise<InProcessServer> {
  const build = (await import(join(import.meta.dirname, "..", "build", "server", "index.js"))) as ServerBuild;
  const { createRequestEdge } = await import("~/edge/request-edge.server");
  const server = createServer(createRequestEdge({ build, mode: "production", trustProxy: false, files: (_req, _res, next) => next() }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

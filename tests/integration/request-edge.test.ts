// The request edge's last line of defence, in process: an error thrown anywhere under it becomes a
// logged, translated 500 for that request alone, and the server keeps answering the next one.
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRequestEdge } from "~/edge/request-edge.server";
import { logger } from "~/lib/logger.server";

let server: Server;
let origin: string;

beforeAll(async () => {
  const build = (await import(join(import.meta.dirname, "..", "..", "build", "server", "index.js"))) as ServerBuild;
  const edge = createRequestEdge({
    build,
    mode: "production",
    trustProxy: false,
    files: (req, _res, next) => {
      if (req.url === "/throws") throw new Error("a bug in a file handler");
      if (req.url === "/invalid-url") throw new TypeError("Invalid URL");
      next();
    },
  });
  server = createServer(edge);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("request edge: one catch per request", () => {
  it("answers a thrown error with a translated 500, logs it with the request id, and keeps serving", async () => {
    const errors = vi.spyOn(logger, "error");
    for (const path of ["/throws", "/invalid-url"]) {
      const response = await fetch(`${origin}${path}`, { headers: { "Accept-Language": "de" } });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ code: "INTERNAL_SERVER_ERROR", message: "Ein unerwarteter Fehler ist aufgetreten." });
      const requestId = response.headers.get("x-request-id");
      expect(errors).toHaveBeenCalledWith(expect.objectContaining({ requestId, err: expect.any(Error) }), "request failed");
    }
    const next = await fetch(`${origin}/ping`);
    expect([next.status, await next.text()]).toEqual([200, "ok"]);
    errors.mockRestore();
  });
});

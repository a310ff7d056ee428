// The dev server (npm run dev) runs behind the same request edge as production: the same refusals,
// headers and request ids, with Vite serving the modules.
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDevServer } from "../../server/dev-server.ts";
import type { AppServer } from "../../server/app-server.ts";
import { rawRequest } from "./raw-http.ts";

let app: AppServer;
let port: number;

beforeAll(async () => {
  app = await createDevServer({ trustProxy: false });
  await new Promise<void>((resolve) => app.server.listen(0, "127.0.0.1", resolve));
  port = (app.server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe("npm run dev", () => {
  it("serves pages through the request edge", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/login`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("content-security-policy")).toMatch(/script-src 'self' 'nonce-/);
  }, 60_000);

  it("refuses what production refuses", async () => {
    expect((await rawRequest(port, { target: "/login", host: "a b" })).status).toBe(400);
    expect((await rawRequest(port, { method: "TRACE", target: "/login" })).status).toBe(405);
    expect(
      (await rawRequest(port, { method: "POST", target: "/login", headers: { Origin: "https://evil.example" }, body: "email=a" })).status,
    ).toBe(403);
    expect((await rawRequest(port, { method: "GET", target: "/rpc/organization/list" })).status).toBe(405);
  });
});

// GET /.well-known/audit-log-keys.json against the built app behind the real request edge: this
// file's signing key (tests/setup/per-file.ts) published with its id, cacheable, readable from any
// origin, revalidated with its ETag, HEAD without a body, and every other method refused (405).
import { createPublicKey } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentSigningKey, signingKeyId } from "~/audit-integrity/signing-keys";
import { startInProcessServer, type InProcessServer } from "../app-server";

const PATH = "/.well-known/audit-log-keys.json";
let server: InProcessServer;

beforeAll(async () => {
  server = await startInProcessServer();
});

afterAll(async () => {
  await server?.close();
});

describe(`GET ${PATH}`, () => {
  it("publishes the signing key's public half with its id, as JSON anyone may read and cache for a few minutes", async () => {
    const response = await fetch(`${server.origin}${PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const body = (await response.json()) as { keys: { id: string; alg: string; publicKey: string; status: string }[] };
    const key = currentSigningKey()!;
    expect(body.keys).toEqual([{ id: key.id, alg: "Ed25519", publicKey: expect.stringContaining("BEGIN PUBLIC KEY"), status: "current" }]);
    expect(signingKeyId(createPublicKey(body.keys[0]!.publicKey))).toBe(key.id);
    // Nothing private in it.
    expect(JSON.stringify(body)).not.toContain("PRIVATE");
  });

  it("revalidates with its ETag (304) and answers HEAD without a body", async () => {
    const first = await fetch(`${server.origin}${PATH}`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.origin}${PATH}`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const head = await fetch(`${server.origin}${PATH}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("refuses other methods with 405 naming GET and HEAD", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const response = await fetch(`${server.origin}${PATH}`, { method, headers: { "content-type": "application/json" }, body: "{}" });
      expect(response.status, method).toBe(405);
      // POST reaches the route, which names its own two; the edge refuses the others before any route.
      expect(response.headers.get("allow"), method).toBe(method === "POST" ? "GET, HEAD" : "GET, HEAD, POST, OPTIONS");
    }
  });
});

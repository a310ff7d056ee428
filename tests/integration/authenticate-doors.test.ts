// apiKey.authenticate has two doors (app/rpc/api-key-authenticate.server.ts): the request edge answers
// the plain request itself, oRPC answers everything else and is what the other tests call. Here both
// get the same requests and must give the same answers, byte for byte: status, body, the headers a
// caller reads. The plain ones must really take the edge's door (it sends a Content-Length; oRPC's
// Node adapter streams its answer chunked), and that door must keep the rules the others prove on
// oRPC's: last used moves, nothing is audited, the request is counted.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "~/api-keys/secret.server";
import { prisma } from "~/db.server";
import { createRequestEdge } from "~/edge/request-edge.server";
import { beginDraining, resetLifecycleForTests } from "~/lib/lifecycle.server";
import { handleRpcFetchRequest } from "~/rpc/handler.server";
import { issueKey, revokeKey } from "../domain-calls";
import { memberOfNewOrganization } from "../api-key-factories";

let server: Server;
let origin: string;

beforeAll(async () => {
  const build = (await import(join(import.meta.dirname, "..", "..", "build", "server", "index.js"))) as ServerBuild;
  server = createServer(createRequestEdge({ build, mode: "production", trustProxy: false }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Call {
  label: string;
  body: string;
  headers: Record<string, string>;
  /** The edge answers it itself. */
  plain: boolean;
}

interface Answer {
  status: number;
  body: string;
  contentType: string | null;
  retryAfter: string | null;
  cacheControl: string | null;
  chunked: boolean;
}

/** What the edge adds to every answer (app/edge/security-headers.ts), and the request id. */
const EDGE_HEADERS = [
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "cross-origin-opener-policy",
];
const edgeHeadersSeen = new Set<string>();

async function throughEdge(call: Call, path = "/rpc/apiKey/authenticate"): Promise<Answer> {
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...call.headers },
    body: call.body,
  });
  // Whichever door answered, the edge's own headers are there, the same ones.
  expect(response.headers.get("x-request-id"), call.label).toMatch(/^[0-9a-f-]{36}$/);
  edgeHeadersSeen.add(JSON.stringify(EDGE_HEADERS.map((name) => response.headers.get(name))));
  return answerOf(response, response.headers.get("transfer-encoding") === "chunked" && !response.headers.has("content-length"));
}

async function throughOrpc(call: Call): Promise<Answer> {
  const request = new Request("http://localhost/rpc/apiKey/authenticate", {
    method: "POST",
    headers: { "content-type": "application/json", ...call.headers },
    body: call.body,
  });
  return answerOf(await handleRpcFetchRequest(request, "127.0.0.1"), true);
}

async function answerOf(response: Response, chunked: boolean): Promise<Answer> {
  return {
    status: response.status,
    body: await response.text(),
    contentType: response.headers.get("content-type"),
    retryAfter: response.headers.get("retry-after"),
    cacheControl: response.headers.get("cache-control"),
    chunked,
  };
}

async function keyWith(scopes: ("organization:read" | "member:read" | "audit:view")[]) {
  const owner = await memberOfNewOrganization();
  return { ...owner, ...(await issueKey(owner.auth, owner.organization.id, { name: "doors", scopes })) };
}

const plainBody = (scopes: unknown[]) => JSON.stringify({ json: { scopes } });

describe("apiKey.authenticate: the edge's door and oRPC's answer alike", () => {
  it("gives the same status, body and headers for every kind of request", async () => {
    const held = await keyWith(["audit:view", "member:read"]);
    const expired = await keyWith(["audit:view"]);
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: expired.organization.id, id: expired.key.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const revoked = await keyWith(["audit:view"]);
    await revokeKey(revoked.auth, revoked.organization.id, revoked.key.id);
    const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
    const flipped = held.secret.slice(0, -1) + (held.secret.endsWith("a") ? "b" : "a");
    const calls: Call[] = [
      { label: "identity only", body: plainBody([]), headers: bearer(held.secret), plain: true },
      { label: "scopes held", body: plainBody(["member:read", "audit:view"]), headers: bearer(held.secret), plain: true },
      { label: "a scope twice", body: plainBody(["audit:view", "audit:view"]), headers: bearer(held.secret), plain: true },
      { label: "50 scopes", body: plainBody(Array.from({ length: 50 }, () => "audit:view")), headers: bearer(held.secret), plain: true },
      { label: "a scope not held", body: plainBody(["billing:view"]), headers: bearer(held.secret), plain: true },
      {
        label: "not held, German",
        body: plainBody(["billing:view"]),
        headers: { ...bearer(held.secret), "accept-language": "de" },
        plain: true,
      },
      {
        label: "not held, lng cookie",
        body: plainBody(["billing:view"]),
        headers: { ...bearer(held.secret), cookie: "lng=de" },
        plain: true,
      },
      { label: "lowercase scheme", body: plainBody([]), headers: { authorization: `bearer ${held.secret}` }, plain: true },
      { label: "unknown key", body: plainBody([]), headers: bearer(generateSecret(randomUUID()).secret), plain: true },
      { label: "expired key", body: plainBody(["audit:view"]), headers: bearer(expired.secret), plain: true },
      { label: "revoked key", body: plainBody([]), headers: bearer(revoked.secret), plain: true },
      { label: "bad checksum", body: plainBody([]), headers: bearer(flipped), plain: true },
      { label: "no key", body: plainBody([]), headers: {}, plain: true },
      { label: "no key, German", body: plainBody([]), headers: { "accept-language": "de-AT, en;q=0.5" }, plain: true },
      { label: "a session cookie, no key", body: plainBody([]), headers: { cookie: "__Host-session=abc" }, plain: true },
      { label: "51 scopes", body: plainBody(Array.from({ length: 51 }, () => "audit:view")), headers: bearer(held.secret), plain: false },
      { label: "unknown scope", body: plainBody(["audit:write"]), headers: bearer(held.secret), plain: false },
      {
        label: "unknown scope, German",
        body: plainBody(["x"]),
        headers: { ...bearer(held.secret), "accept-language": "de" },
        plain: false,
      },
      { label: "unknown scope, no key", body: plainBody(["x"]), headers: {}, plain: false },
      { label: "scopes not a list", body: JSON.stringify({ json: { scopes: "audit:view" } }), headers: bearer(held.secret), plain: false },
      { label: "scopes missing", body: JSON.stringify({ json: {} }), headers: bearer(held.secret), plain: false },
      { label: "an extra field", body: JSON.stringify({ json: { scopes: [], x: 1 } }), headers: bearer(held.secret), plain: false },
      { label: "empty meta", body: JSON.stringify({ json: { scopes: [] }, meta: [] }), headers: bearer(held.secret), plain: false },
      { label: "json null", body: JSON.stringify({ json: null }), headers: bearer(held.secret), plain: false },
      { label: "a list", body: "[]", headers: bearer(held.secret), plain: false },
      { label: "__proto__ field", body: '{"json":{"scopes":[],"__proto__":{"x":1}}}', headers: bearer(held.secret), plain: false },
    ];
    for (const call of calls) {
      const [edge, orpc] = [await throughEdge(call), await throughOrpc(call)];
      expect({ ...edge, chunked: undefined }, call.label).toEqual({ ...orpc, chunked: undefined });
      expect(edge.chunked, `${call.label}: answered by ${call.plain ? "the edge" : "oRPC"}`).toBe(!call.plain);
      // The same request in another form of the URL goes the general way: the same answer.
      const general = await throughEdge(call, "/rpc/apiKey/authenticate?");
      expect([general.status, general.body], `${call.label}, the general way`).toEqual([edge.status, edge.body]);
    }
    expect(edgeHeadersSeen.size).toBe(1);
    expect(JSON.parse([...edgeHeadersSeen][0]!)).not.toContain(null);
  });

  it("asks the client to close its connection while the instance drains, on the door as elsewhere", async () => {
    const { secret } = await keyWith(["audit:view"]);
    const call = { label: "draining", body: plainBody([]), headers: { authorization: `Bearer ${secret}` }, plain: true };
    beginDraining();
    try {
      for (const path of ["/rpc/apiKey/authenticate", "/rpc/apiKey/authenticate?"]) {
        const response = await fetch(`${origin}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...call.headers },
          body: call.body,
        });
        expect([response.status, response.headers.get("connection")], path).toEqual([200, "close"]);
      }
    } finally {
      resetLifecycleForTests();
    }
  });

  it("keeps the edge's limits on the door: body size, JSON, content type, Host", async () => {
    const { secret } = await keyWith(["audit:view"]);
    const authorization = `Bearer ${secret}`;
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${origin}/rpc/apiKey/authenticate`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization, ...headers },
        body,
      });
    const huge = JSON.stringify({ json: { scopes: [] }, pad: "x".repeat(70 * 1024) });
    const tooLarge = await post(huge);
    expect([tooLarge.status, (await tooLarge.json()).json.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    const notJson = await post("{not json");
    expect([notJson.status, (await notJson.json()).json.code]).toEqual([400, "BAD_REQUEST"]);
    const form = await post(plainBody([]), { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    const empty = await post("");
    expect([empty.status, (await empty.json()).json.code]).toEqual([400, "BAD_REQUEST"]);
    // A Host the edge refuses is refused on this path too (a raw request: fetch will not send one),
    // and one with the right shape that no URL can be built on ("a:99999") alike.
    const { request } = await import("node:http");
    const withHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${origin}/rpc/apiKey/authenticate`,
          { method: "POST", headers: { host, authorization, "content-type": "application/json" } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(plainBody([]));
      });
    for (const host of ["a b", "a:99999", "1.2.3.999"]) expect(await withHost(host), host).toBe(400);
    // And the door still answers the next request on a fresh connection.
    expect((await post(plainBody([]))).status).toBe(200);
  });

  it("keeps the procedure's rules on the edge's door: last used moves, nothing is audited, no scope → no touch", async () => {
    const { key, secret, organization } = await keyWith(["audit:view"]);
    const events = await prisma.auditEvent.count({ where: { organizationId: organization.id } });
    const forbidden = await throughEdge({
      label: "",
      body: plainBody(["member:read"]),
      headers: { authorization: `Bearer ${secret}` },
      plain: true,
    });
    expect(forbidden.status).toBe(403);
    expect(
      (await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id: key.id } } })).lastUsedAt,
    ).toBeNull();
    const before = Date.now();
    const ok = await throughEdge({
      label: "",
      body: plainBody(["audit:view"]),
      headers: { authorization: `Bearer ${secret}` },
      plain: true,
    });
    expect([ok.status, JSON.parse(ok.body)]).toEqual([
      200,
      { json: { keyId: key.id, organizationId: organization.id, scopes: ["audit:view"] } },
    ]);
    const lastUsed = (
      await prisma.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId: organization.id, id: key.id } } })
    ).lastUsedAt;
    expect(lastUsed!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await prisma.auditEvent.count({ where: { organizationId: organization.id } })).toBe(events);
  });
});

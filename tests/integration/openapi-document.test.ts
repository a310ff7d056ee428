// GET /api/openapi.json against the built app behind the real request edge, on this file's
// PostgreSQL: the document is valid OpenAPI 3.1 (the official schema, through a maintained
// validator) whose schemas compile as JSON Schema 2020-12, and every example in it is replayed
// against the server: each answer must have the example's status, the headers the document calls
// required, a body its schema accepts, and the example's exact body (ids aside). An answer that
// drifts from the document, or an example nobody can replay, fails here. The 503 is replayed for
// real: the app reaches its database through a relay this file cuts (tests/database-proxy.ts).
import { get } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHENTICATE_DOCUMENT_PATH } from "~/api-keys/openapi/authenticate-document";
import { MAX_BODY_BYTES } from "~/api-keys/openapi/authenticate-answers";
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { AUTHENTICATE_PATH } from "~/rpc/api-key-authenticate.server";
import { MAX_RPC_BODY_BYTES } from "~/rpc/handler.server";
import { memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { startDatabaseProxy } from "../database-proxy";
import { issueKey, revokeKey } from "../domain-calls";
import { readDocument, type ReadDocument } from "../openapi-replay";

// Before anything reads the configuration: the app's connections go through the relay.
const database = await startDatabaseProxy(process.env.DATABASE_URL!);
process.env.DATABASE_URL = database.url;

let server: InProcessServer;
let document: ReadDocument;
let served: Response;
let servedBody: Record<string, unknown>;
const keys = { active: "", revoked: "", keyId: "", organizationId: "" };

beforeAll(async () => {
  server = await startInProcessServer();
  const owner = await memberOfNewOrganization();
  const organizationId = owner.organization.id;
  const active = await issueKey(owner.auth, organizationId, { name: "integration", scopes: ["organization:read", "member:read"] });
  const revoked = await issueKey(owner.auth, organizationId, { name: "revoked", scopes: ["organization:read"] });
  await revokeKey(owner.auth, organizationId, revoked.key.id);
  Object.assign(keys, { active: active.secret, revoked: revoked.secret, keyId: active.key.id, organizationId });
  served = await fetch(`${server.origin}/api/openapi.json`);
  servedBody = (await served.clone().json()) as Record<string, unknown>;
  document = await readDocument(servedBody, AUTHENTICATE_DOCUMENT_PATH);
});

afterAll(async () => {
  await server?.close();
  await database.close();
});

const JSON_TYPE = "application/json";

interface Replay {
  body: string;
  headers: Record<string, string>;
  /** The database is cut while it is sent. */
  databaseDown?: boolean;
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}`, "content-type": JSON_TYPE });

/** How to make the server give each response example: its request example when there is one. */
function replayOf(name: string): Replay {
  const requestExample = document.requests.get(name);
  const identityBody = JSON.stringify({ json: { scopes: [] } });
  if (requestExample !== undefined) return { body: JSON.stringify(requestExample), headers: bearer(keys.active) };
  const replays: Record<string, Replay> = {
    tooManyScopes: { body: JSON.stringify({ json: { scopes: Array(51).fill("audit:view") } }), headers: bearer(keys.active) },
    invalidJson: { body: '{"json":', headers: bearer(keys.active) },
    missingKey: { body: identityBody, headers: { "content-type": JSON_TYPE } },
    revokedKey: { body: identityBody, headers: bearer(keys.revoked) },
    // Valid JSON, padded with whitespace past the limit.
    tooLarge: { body: identityBody + " ".repeat(MAX_RPC_BODY_BYTES), headers: bearer(keys.active) },
    notJson: { body: identityBody, headers: { ...bearer(keys.active), "content-type": "text/plain" } },
    databaseDown: { body: identityBody, headers: bearer(keys.active), databaseDown: true },
  };
  const replay = replays[name];
  if (!replay) throw new Error(`The document's example ${name} has no way to replay it here: add one`);
  return replay;
}

async function send(replay: Replay, extraHeaders: Record<string, string> = {}): Promise<Response> {
  if (replay.databaseDown) await database.cut();
  try {
    return await fetch(`${server.origin}${AUTHENTICATE_PATH}`, {
      method: "POST",
      headers: { ...replay.headers, ...extraHeaders },
      body: replay.body,
    });
  } finally {
    if (replay.databaseDown) await database.restore();
  }
}

/** The example as this server answers it: the 200's ids are the replayed key's. */
function expectedBody(value: unknown): unknown {
  const body = value as { json: Record<string, unknown> };
  return "keyId" in body.json ? { json: { ...body.json, keyId: keys.keyId, organizationId: keys.organizationId } } : value;
}

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document of the one real route, for this instance's origin", () => {
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(document.errors).toBeUndefined();
    expect(document.valid).toBe(true);
    expect(document.version).toBe("3.1");
    expect(servedBody.servers).toEqual([{ url: server.origin, description: "This KeyLedger instance" }]);
    expect(servedBody.externalDocs).toEqual({ description: "Guide for integrators", url: `${server.origin}/docs/authenticate` });
    // Only the route that exists: not the procedure's documentation path, nothing else.
    expect(Object.keys(servedBody.paths as object)).toEqual([AUTHENTICATE_PATH]);
    expect(AUTHENTICATE_DOCUMENT_PATH).toBe(AUTHENTICATE_PATH);
    expect(MAX_BODY_BYTES).toBe(MAX_RPC_BODY_BYTES);
    expect([...document.responses.values()].map((example) => example.status)).toEqual(
      expect.arrayContaining([200, 400, 401, 403, 413, 415, 503]),
    );
  });

  it("is cacheable for a few minutes, revalidates with its ETag, may be read from any origin, and keeps the edge's headers", async () => {
    expect(served.headers.get("cache-control")).toBe("public, max-age=300");
    expect(served.headers.get("access-control-allow-origin")).toBe("*");
    expect(served.headers.get("vary")).toBe("Host");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(served.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const etag = served.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${server.origin}/api/openapi.json`, { headers: { "if-none-match": `W/${etag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const head = await fetch(`${server.origin}/api/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("names the Host it was asked on when no APP_ORIGIN is set", async () => {
    // fetch() will not send another Host; node:http will.
    const body = await new Promise<string>((resolve, reject) => {
      const request = get(`${server.origin}/api/openapi.json`, { headers: { host: "keys.example.test:8443" } }, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
        response.on("end", () => resolve(text));
      });
      request.on("error", reject);
    });
    expect((JSON.parse(body) as { servers: { url: string }[] }).servers[0]!.url).toBe("http://keys.example.test:8443");
  });

  it("refuses a POST with 405, naming GET and HEAD", async () => {
    const response = await fetch(`${server.origin}/api/openapi.json`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": JSON_TYPE },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toEqual({ code: "METHOD_NOT_SUPPORTED", message: "This method is not allowed here." });
  });
});

describe("the document's request schema", () => {
  it("accepts the examples the server accepts and refuses the ones it refuses as input", () => {
    for (const [name, value] of document.requests) {
      const acceptedByServer = ["identity", "scopesHeld", "scopeNotHeld"].includes(name);
      expect(document.validateRequest(value), name).toBe(acceptedByServer);
    }
    expect(document.validateRequest({ json: { scopes: [...API_KEY_SCOPES] } })).toBe(true);
    expect(document.validateRequest({ json: { scopes: Array(51).fill("audit:view") } })).toBe(false);
  });
});

describe("every example, replayed against the server", () => {
  it("has a replay, and every request example answers with the response example of its name", () => {
    expect(document.responses.size).toBeGreaterThanOrEqual(14);
    for (const name of document.responses.keys()) expect(() => replayOf(name), name).not.toThrow();
    for (const name of document.requests.keys()) expect(document.responses.has(name), name).toBe(true);
  });

  it("answers each example's status, required headers and exact body, and its schema accepts the body", async () => {
    for (const example of document.responses.values()) {
      const response = await send(replayOf(example.name));
      const body = (await response.json()) as unknown;
      expect(response.status, example.name).toBe(example.status);
      expect(response.headers.get("content-type"), example.name).toMatch(/^application\/json\b/);
      expect(example.validate(body), `${example.name}: ${JSON.stringify(example.validate.errors)}`).toBe(true);
      expect(body, example.name).toEqual(expectedBody(example.value));
      for (const [header, validate] of Object.entries(example.requiredHeaders)) {
        const value = response.headers.get(header);
        expect(value, `${example.name}: ${header}`).not.toBeNull();
        expect(validate(value), `${example.name}: ${header}`).toBe(true);
      }
    }
  });

  it("says the same in German, in the same shapes", async () => {
    for (const name of ["revokedKey", "scopeNotHeld", "unknownScope", "notJson", "databaseDown"]) {
      const example = document.responses.get(name)!;
      const response = await send(replayOf(name), { "accept-language": "de" });
      const body = (await response.json()) as { json: { message: string } };
      expect(response.status, name).toBe(example.status);
      expect(example.validate(body), name).toBe(true);
      expect(body.json.message, name).not.toBe((example.value as { json: { message: string } }).json.message);
    }
  });

  it("gives the 503's Retry-After in the header and the body alike", async () => {
    const response = await send(replayOf("databaseDown"));
    const body = (await response.json()) as { json: { data: { retryAfterSeconds: number } } };
    expect(response.headers.get("retry-after")).toBe(String(body.json.data.retryAfterSeconds));
    // Back once the database is.
    expect((await send(replayOf("identity"))).status).toBe(200);
  });
});

describe("what the path's description promises", () => {
  it("answers OPTIONS 204 and other methods 405, with Allow: POST, OPTIONS", async () => {
    const options = await fetch(`${server.origin}${AUTHENTICATE_PATH}`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("POST, OPTIONS");
    const get = await fetch(`${server.origin}${AUTHENTICATE_PATH}`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    expect(((await get.json()) as { json: { code: string } }).json.code).toBe("METHOD_NOT_SUPPORTED");
  });

  it("checks in the stated order: media type (none is JSON), size, JSON syntax, then the key, then the input", async () => {
    const noKey = { "content-type": JSON_TYPE };
    const status = async (body: string, headers: Record<string, string>) =>
      (await fetch(`${server.origin}${AUTHENTICATE_PATH}`, { method: "POST", headers, body })).status;
    expect(await status("{", { "content-type": "text/plain" })).toBe(415);
    // No Content-Type at all is read as JSON (a byte body makes fetch send none).
    const untyped = await fetch(`${server.origin}${AUTHENTICATE_PATH}`, {
      method: "POST",
      headers: { authorization: `Bearer ${keys.active}` },
      body: new TextEncoder().encode(JSON.stringify({ json: { scopes: [] } })),
    });
    expect(untyped.status).toBe(200);
    expect(await status(`{${" ".repeat(MAX_RPC_BODY_BYTES)}`, noKey)).toBe(413);
    expect(await status("{", noKey)).toBe(400);
    expect(await status(JSON.stringify({ json: { scopes: ["organization:write"] } }), noKey)).toBe(401);
    expect(await status(JSON.stringify({ json: { scopes: ["organization:write"] } }), bearer(keys.active))).toBe(400);
    expect(await status(JSON.stringify({ json: { scopes: ["audit:view"] } }), bearer(keys.active))).toBe(403);
  });
});

// POST /api/secret-scanning/github over real HTTP, behind the request edge, in the built app: the
// partner format's answer, and each refusal's status and translated `{code, message}` (English and
// German). The rules behind it are tested in secret-scanning.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportBody, scannerKeys, signedHeaders } from "../secret-scanning";

const github = scannerKeys("endpoint-key");
// Before the app reads its configuration.
process.env.SECRET_SCANNING_PUBLIC_KEYS = github.configured;

const { startInProcessServer } = await import("../app-server");
const { createOrganizationWith, createUser, signedIn } = await import("../factories");
const { issueKey } = await import("../domain-calls");

const PATH = "/api/secret-scanning/github";
let server: Awaited<ReturnType<typeof startInProcessServer>>;
beforeAll(async () => {
  server = await startInProcessServer();
});
afterAll(() => server.close());

const send = (body: string, headers: Record<string, string>) => fetch(`${server.origin}${PATH}`, { method: "POST", headers, body });

describe(PATH, () => {
  it("answers a signed report with one label per token, in GitHub's format", async () => {
    const owner = await createUser();
    const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }]);
    const { auth } = await signedIn(owner.id, organization.id);
    const { secret } = await issueKey(auth, organization.id, { name: "endpoint", scopes: ["audit:view"] });
    const body = reportBody([{ token: secret }, { token: "sk_junk" }]);
    const response = await send(body, signedHeaders(github, body));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual([
      { token_raw: secret, token_type: "keyledger_api_key", label: "true_positive" },
      { token_raw: "sk_junk", token_type: "keyledger_api_key", label: "false_positive" },
    ]);
  });

  it("refuses with a translated message: 401 unsigned, 400 not JSON, 413 too many tokens or bytes, 405 other methods", async () => {
    const body = reportBody([{ token: "sk_x" }]);
    const unsigned = await send(body, { "Content-Type": "application/json", "Accept-Language": "de" });
    expect(unsigned.status).toBe(401);
    expect(await unsigned.json()).toEqual({ code: "UNAUTHORIZED", message: expect.stringContaining("nicht signiert") });

    const notJson = "[{";
    const bad = await send(notJson, signedHeaders(github, notJson));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ code: "BAD_REQUEST", message: "The request body is not valid JSON." });

    const many = reportBody(Array.from({ length: 10_000 }, () => ({ token: "x", url: "" })));
    const tooMany = await send(many, signedHeaders(github, many));
    expect(tooMany.status).toBe(413);
    expect(await tooMany.json()).toEqual({ code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("at most 1000 tokens and 1 MiB") });

    // 10 MB: the edge refuses it before the app reads it.
    const huge = reportBody([{ token: "sk_x", url: "a".repeat(10 * 1024 * 1024) }]);
    expect((await send(huge, signedHeaders(github, huge))).status).toBe(413);

    const get = await fetch(`${server.origin}${PATH}`);
    expect(get.status).toBe(405);
  });
});

// The /rpc wire format of docs/contract.md, through the same handler the server uses.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createOrganizationWith, createUser, signedIn } from "../factories";
import { rpc } from "../rpc";

describe("/rpc", () => {
  it("organization.list answers the caller's organizations in {json: ...}", async () => {
    const user = await createUser();
    const org = await createOrganizationWith([{ userId: user.id, role: "admin" }]);
    const { token } = await signedIn(user.id, org.id);
    const { status, json } = await rpc("organization/list", { token });
    expect(status).toBe(200);
    expect(json).toEqual([{ id: org.id, name: org.name, slug: org.slug, role: "admin" }]);
  });

  it("accepts an empty input object and a missing one", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    expect((await rpc("organization/list", { token, body: "{}" })).status).toBe(200);
  });

  it("answers 401 UNAUTHORIZED without a session, or with a forged one", async () => {
    for (const token of [undefined, "forged", "a".repeat(32)]) {
      const { status, json } = await rpc("organization/list", { token });
      expect(status).toBe(401);
      expect(json).toMatchObject({ code: "UNAUTHORIZED" });
    }
  });

  it("answers 400 BAD_REQUEST for a body that is not JSON, translated", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const en = await rpc("organization/list", { token, body: "{not json" });
    expect(en.status).toBe(400);
    expect(en.json).toMatchObject({ code: "BAD_REQUEST", message: "The request body is not valid JSON." });
    const de = await rpc("organization/list", { token, body: "{not json", headers: { "accept-language": "de-DE,de;q=0.9" } });
    expect(de.json).toMatchObject({ code: "BAD_REQUEST", message: "Der Inhalt der Anfrage ist kein gültiges JSON." });
  });

  it("answers 400 for the wrong shape, with the offending path", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    for (const body of [{ json: { unexpected: 1 } }, { json: [] }, { json: "text" }]) {
      const { status, json } = await rpc("organization/list", { token, body: JSON.stringify(body) });
      expect(status).toBe(400);
      expect(json).toMatchObject({ code: "BAD_REQUEST", message: "The request does not have the expected shape." });
    }
    const create = await rpc("organization/create", { token, body: JSON.stringify({ json: { name: "" } }) });
    expect(create.status).toBe(400);
    expect((create.json.data as { issues: { path: string }[] }).issues[0]!.path).toBe("name");
  });

  it("refuses cross-site calls with a session cookie (403)", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const crossSite: Record<string, string>[] = [
      { origin: "https://evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
    ];
    for (const headers of crossSite) {
      const { status, json } = await rpc("organization/list", { token, headers });
      expect(status).toBe(403);
      expect(json).toMatchObject({ code: "FORBIDDEN" });
    }
    const same = await rpc("organization/list", { token, headers: { origin: "http://localhost", "sec-fetch-site": "same-origin" } });
    expect(same.status).toBe(200);
  });

  it("answers 404 for an unknown organization and 403 for someone else's", async () => {
    const user = await createUser();
    const other = await createUser();
    const theirs = await createOrganizationWith([{ userId: other.id, role: "owner" }]);
    const { token } = await signedIn(user.id);
    const unknown = await rpc("organization/setActive", { token, body: JSON.stringify({ json: { organizationId: randomUUID() } }) });
    expect([unknown.status, unknown.json.code]).toEqual([404, "NOT_FOUND"]);
    const foreign = await rpc("organization/setActive", { token, body: JSON.stringify({ json: { organizationId: theirs.id } }) });
    expect([foreign.status, foreign.json.code]).toEqual([403, "FORBIDDEN"]);
  });

  it("refuses an oversized body with a 4xx, not a crash", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const { status } = await rpc("organization/create", { token, body: JSON.stringify({ json: { name: "x".repeat(200_000) } }) });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it("answers unknown procedures with a translated 404", async () => {
    const en = await rpc("organization/nope");
    expect([en.status, en.json.code, en.json.message]).toEqual([404, "NOT_FOUND", "Not found."]);
    const de = await rpc("nope", { headers: { "accept-language": "de" } });
    expect([de.status, de.json.message]).toEqual([404, "Nicht gefunden."]);
  });
});

describe("/rpc validation messages", () => {
  it("translates the schemas' message keys in each issue", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const body = JSON.stringify({ json: { name: "" } });
    const en = await rpc("organization/create", { token, body });
    expect((en.json.data as { issues: { message: string }[] }).issues[0]!.message).toBe("This field is required.");
    const de = await rpc("organization/create", { token, body, headers: { "accept-language": "de" } });
    expect((de.json.data as { issues: { message: string }[] }).issues[0]!.message).toBe("Dieses Feld ist erforderlich.");
  });
});

describe("/rpc validation limits", () => {
  it("names the schema's own limit in the message", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const { json } = await rpc("organization/create", { token, body: JSON.stringify({ json: { name: "x".repeat(81) } }) });
    expect((json.data as { issues: { message: string }[] }).issues[0]!.message).toBe("Use at most 80 characters.");
  });
});

describe("/rpc validation messages never interpret the caller's text", () => {
  // A field name is quoted in zod's "Unrecognized key" message; i18next would run a `$t(…)` inside
  // it as a nested lookup whose options reconfigure the shared interpolator (found by a hostile
  // review: one unauthenticated request froze the server for seconds, or broke every later message).
  const malformedButWellFormedKey = "sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA2nuKpf";
  const injections = [
    '$t(zz, {"defaultValue":"<x>","x":"<x>","interpolation":{"prefix":"<","suffix":">","skipOnVariables":false,"maxReplaces":30000000}})',
    '$t(zz, {"defaultValue":"<x>","x":"1","interpolation":{"prefix":"<","suffix":">","escapeValue":true,"escape":"nope"}})',
    '$t(errors:field.tooLong, {"max":1,"interpolation":{"escapeValue":true,"escape":"nope"}})',
    "{{max}} $t(errors:unexpected)",
  ];

  it("answers an injected field name with a plain 400 naming the field, and leaves later messages intact", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    for (const field of injections) {
      const answer = await rpc("apiKey/authenticate", {
        headers: { authorization: `Bearer ${malformedButWellFormedKey}` },
        body: JSON.stringify({ json: { scopes: [], [field]: 1 } }),
      });
      expect(answer.status).toBe(400);
      expect((answer.json.data as { issues: unknown[] }).issues).toEqual([{ path: field, message: "This field is not expected here." }]);
      const created = await rpc("organization/create", { token, body: JSON.stringify({ json: { name: "x".repeat(81), [field]: 1 } }) });
      expect(created.status).toBe(400);
      const messages = (created.json.data as { issues: { message: string }[] }).issues.map((issue) => issue.message);
      expect(messages).toContain("Use at most 80 characters.");
    }
  });

  it("words zod's own issues by their code, in the caller's language", async () => {
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const wrongType = await rpc("organization/setActive", {
      token,
      body: JSON.stringify({ json: { organizationId: 42 } }),
      headers: { "accept-language": "de" },
    });
    expect((wrongType.json.data as { issues: unknown[] }).issues).toEqual([
      { path: "organizationId", message: "Dieses Feld hat den falschen Typ." },
    ]);
  });
});

describe("/rpc answers stay small whatever the input", () => {
  it("checks a list's length before its elements, and reports at most 20 issues", async () => {
    const fakeButWellFormedKey = "sk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA2nuKpf";
    const answer = await rpc("apiKey/authenticate", {
      headers: { authorization: `Bearer ${fakeButWellFormedKey}` },
      body: JSON.stringify({ json: { scopes: Array.from({ length: 20_000 }, () => 0) } }),
    });
    expect(answer.status).toBe(400);
    expect((answer.json.data as { issues: unknown[] }).issues).toEqual([{ path: "scopes", message: "List at most 50 scopes." }]);
    const user = await createUser();
    const { token } = await signedIn(user.id);
    const many = await rpc("organization/create", {
      token,
      body: JSON.stringify({ json: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, i])) }),
    });
    expect((many.json.data as { issues: unknown[] }).issues.length).toBeLessThanOrEqual(20);
  });
});

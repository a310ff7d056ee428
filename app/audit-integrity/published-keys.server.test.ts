// The published keys' document: the current key first, then the retired ones, each as its id, the
// algorithm, the SPKI PEM and its status; empty when nothing is configured; a conditional request
// with the document's ETag gets 304.
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { publishedKeysDocument, publishedKeysResponse } from "./published-keys.server";
import { signingKeyId } from "./signing-keys";

const ed25519 = () => generateKeyPairSync("ed25519");

describe("the published keys", () => {
  it("lists the current key and the retired ones, each with its id and status", () => {
    const current = ed25519();
    const retired = ed25519();
    const { keys } = publishedKeysDocument({ AUDIT_SIGNING_KEY: current.privateKey, AUDIT_RETIRED_KEYS: [retired.publicKey] });
    expect(keys.map(({ id, alg, status }) => ({ id, alg, status }))).toEqual([
      { id: signingKeyId(current.publicKey), alg: "Ed25519", status: "current" },
      { id: signingKeyId(retired.publicKey), alg: "Ed25519", status: "retired" },
    ]);
    expect(keys[0]!.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    expect(signingKeyId(createPublicKey(keys[1]!.publicKey))).toBe(keys[1]!.id);
  });

  it("is an empty list when no key is configured", async () => {
    const response = publishedKeysResponse(new Request("http://x/.well-known/audit-log-keys.json"), {});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ keys: [] });
  });

  it("answers 304 to a request naming its ETag, and a new document after a rotation", async () => {
    const config = { AUDIT_SIGNING_KEY: ed25519().privateKey };
    const first = publishedKeysResponse(new Request("http://x/"), config);
    const etag = first.headers.get("etag")!;
    const again = publishedKeysResponse(new Request("http://x/", { headers: { "if-none-match": `W/${etag}, "other"` } }), config);
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    const rotated = publishedKeysResponse(new Request("http://x/", { headers: { "if-none-match": etag } }), {
      AUDIT_SIGNING_KEY: ed25519().privateKey,
      AUDIT_RETIRED_KEYS: [createPublicKey(config.AUDIT_SIGNING_KEY)],
    });
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as { keys: unknown[] }).keys).toHaveLength(2);
  });
});

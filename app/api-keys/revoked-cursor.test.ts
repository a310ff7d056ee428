import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/domain-error";
import { cursorOrder, encodeRevokedCursor, parseRevokedCursor } from "./revoked-cursor";

const parse = (query: string) => parseRevokedCursor(new URLSearchParams(query));
const raw = (text: string) => Buffer.from(text, "latin1").toString("base64url");

function refusal(query: string): string {
  try {
    parse(query);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("BAD_REQUEST");
    return (error as DomainError).messageKey;
  }
  throw new Error(`expected a 400 for ${query}`);
}

describe("revoked keys cursor", () => {
  it("round-trips the (revokedAt, id) of a key, opaque and URL-safe", () => {
    const cursor = { revokedAt: new Date("2026-11-22T14:05:09.123Z"), id: randomUUID() };
    const encoded = encodeRevokedCursor(cursor);
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encoded).not.toContain(cursor.id);
    expect(parse(`revokedCursor=${encoded}`)).toEqual(cursor);
  });

  it("round-trips a position in the history sorted by last use, a never-used key included", () => {
    const used = { lastUsedAt: new Date("2026-11-20T08:00:00.000Z"), id: randomUUID() };
    const never = { lastUsedAt: null, id: randomUUID() };
    expect(parse(`revokedCursor=${encodeRevokedCursor(used)}`)).toEqual(used);
    expect(parse(`revokedCursor=${encodeRevokedCursor(never)}`)).toEqual(never);
    expect(cursorOrder(used)).toBe("lastUsed");
    expect(cursorOrder({ revokedAt: new Date(), id: never.id })).toBe("revoked");
    const id = randomUUID();
    for (const text of [
      `lastUsed|soon|${id}`,
      `lastUsed|2026-02-30T00:00:00.000Z|${id}`,
      `lastUsed|never|nope`,
      `lastUsed|never|${id}|x`,
      `lastused|never|${id}`,
    ])
      expect(refusal(`revokedCursor=${raw(text)}`), text).toBe("apiKey.badRevokedCursor");
  });

  it("means the first page when absent or blank", () => {
    expect(parse("")).toBeUndefined();
    expect(parse("revokedCursor=")).toBeUndefined();
    expect(parse("revokedCursor=%20%20")).toBeUndefined();
  });

  it("refuses anything we did not make with a 400, never a 500", () => {
    const id = randomUUID();
    const bad = [
      "revokedCursor=not-a-cursor!",
      "revokedCursor=%00",
      `revokedCursor=${"A".repeat(5000)}`,
      `revokedCursor=${raw(`2026-11-22T14:05:09.123Z|${id}`)}&revokedCursor=${raw(`2026-11-22T14:05:09.123Z|${id}`)}`,
      `revokedCursor=${raw(`2026-11-22T14:05:09.123Z|nope`)}`,
      `revokedCursor=${raw(`2026-11-22T14:05:09.123Z|${id}|extra`)}`,
      `revokedCursor=${raw(`2026-11-22|${id}`)}`,
      `revokedCursor=${raw(`2026-02-30T00:00:00.000Z|${id}`)}`,
      `revokedCursor=${raw(`2026-11-22T25:00:00.000Z|${id}`)}`,
      `revokedCursor=${raw(`1970-01-01T00:00:00.000Z|${id}`)}`,
      `revokedCursor=${raw(`0000-01-01T00:00:00.000Z|${id}`)}`,
      `revokedCursor=${raw(`\u00ff\u00fe|${id}`)}`,
      `revokedCursor=${raw(`'; DROP TABLE api_keys; --|${id}`)}`,
      "revokedCursor=A",
      "revokedCursor=====",
    ];
    for (const query of bad) expect(refusal(query), query.slice(0, 80)).toBe("apiKey.badRevokedCursor");
  });
});

// apiKey.list answers bounded (docs/contract.md): every key in use, then one page of the revoked
// history as the keys page pages it (REVOKED_PAGE_SIZE, newest revocation first), the last revoked
// key of a page with more carrying `nextRevokedCursor`; a bad cursor is a translated 400; a cursor
// only ever moves through the caller's own organization's keys.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodeRevokedCursor, REVOKED_PAGE_SIZE } from "~/api-keys/revoked-cursor";
import { hashSecret } from "~/api-keys/secret.server";
import { prisma } from "~/db.server";
import { callRpc, memberOfNewOrganization } from "../api-key-factories";
import { issueKey } from "../domain-calls";

interface Listed {
  id: string;
  name: string;
  state: string;
  revokedAt: string | null;
  nextRevokedCursor?: string;
}

/** Revoked keys straight into the table: `times` are their revocation instants. */
async function revokedKeys(organizationId: string, times: Date[]) {
  const rows = times.map((revokedAt, i) => ({ id: randomUUID() as string, name: `retired ${i}`, revokedAt }));
  await prisma.apiKey.createMany({
    data: rows.map((row) => ({
      ...row,
      organizationId,
      scopes: ["audit:view"],
      secretHash: new Uint8Array(hashSecret(`seed-${randomUUID()}`)),
      prefix: "sk_seed0000",
    })),
  });
  // The order the history promises: newest revocation first, then the larger id.
  return rows.sort((a, b) => b.revokedAt.getTime() - a.revokedAt.getTime() || (a.id < b.id ? 1 : -1)).map((row) => row.id);
}

async function list(token: string, input: Record<string, unknown>, headers: Record<string, string> = {}) {
  return callRpc("apiKey/list", { sessionToken: token, input, headers });
}

describe("apiKey.list paging", () => {
  it("gives every key in use, then the revoked keys a page at a time, each exactly once, until no cursor follows", async () => {
    const { organization, token, auth } = await memberOfNewOrganization();
    const inUse = [
      await issueKey(auth, organization.id, { name: "in use 1", scopes: ["audit:view"] }),
      await issueKey(auth, organization.id, { name: "in use 2", scopes: ["audit:view"] }),
    ];
    const base = Date.now() - 1_000_000;
    // 2 pages and 3, with 4 revoked at one instant across the first page break (the id decides).
    const times = Array.from({ length: 2 * REVOKED_PAGE_SIZE + 3 }, (_, i) =>
      i >= REVOKED_PAGE_SIZE - 2 && i < REVOKED_PAGE_SIZE + 2 ? new Date(base) : new Date(base - i * 60_000),
    );
    const expected = await revokedKeys(organization.id, times);

    const first = await list(token, { organizationId: organization.id });
    expect(first.status).toBe(200);
    const firstKeys = first.json as unknown as Listed[];
    expect(firstKeys.slice(0, 2).map((k) => [k.name, k.state])).toEqual([
      ["in use 2", "active"],
      ["in use 1", "active"],
    ]);
    expect(firstKeys.map((k) => k.id)).toEqual(expect.arrayContaining(inUse.map((k) => k.key.id)));
    expect(firstKeys).toHaveLength(2 + REVOKED_PAGE_SIZE);

    const pages: Listed[][] = [firstKeys.slice(2)];
    for (let cursor = pages[0]!.at(-1)!.nextRevokedCursor; cursor; cursor = pages.at(-1)!.at(-1)!.nextRevokedCursor) {
      const next = await list(token, { organizationId: organization.id, revokedCursor: cursor });
      expect(next.status).toBe(200);
      pages.push(next.json as unknown as Listed[]);
      expect(pages.length).toBeLessThan(10);
    }
    expect(pages.map((page) => page.length)).toEqual([REVOKED_PAGE_SIZE, REVOKED_PAGE_SIZE, 3]);
    expect(pages.flat().map((k) => k.id)).toEqual(expected);
    expect(pages.flat().every((k) => k.state === "revoked")).toBe(true);
    // Only the last key of a page with more carries the cursor.
    expect(pages.flat().filter((k) => k.nextRevokedCursor).length).toBe(2);
  });

  it("takes the keys page's own cursor (one format for both)", async () => {
    const { organization, token } = await memberOfNewOrganization();
    const expected = await revokedKeys(organization.id, [
      new Date(Date.now() - 3_000),
      new Date(Date.now() - 2_000),
      new Date(Date.now() - 1_000),
    ]);
    const row = await prisma.apiKey.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: organization.id, id: expected[0]! } },
    });
    const answer = await list(token, {
      organizationId: organization.id,
      revokedCursor: encodeRevokedCursor({ revokedAt: row.revokedAt!, id: row.id }),
    });
    expect((answer.json as unknown as Listed[]).map((k) => k.id)).toEqual(expected.slice(1));
  });

  it("answers a cursor it did not make with a 400 in the caller's language, and nothing else", async () => {
    const { organization, token } = await memberOfNewOrganization();
    for (const revokedCursor of ["not-a-cursor!", "", "A".repeat(5000), btoa("2026-02-30T00:00:00.000Z|" + randomUUID()), btoa("x|y")]) {
      const english = await list(token, { organizationId: organization.id, revokedCursor });
      expect([english.status, english.json.code], revokedCursor).toEqual([400, "BAD_REQUEST"]);
      expect(english.json.message).toBe(
        "revokedCursor is not a cursor apiKey.list gave. Ask again without it to start from the newest revoked keys.",
      );
    }
    const german = await list(token, { organizationId: organization.id, revokedCursor: "nope" }, { "accept-language": "de" });
    expect(german.status).toBe(400);
    expect(german.json.message).toContain("revokedCursor ist kein Cursor, den apiKey.list geliefert hat.");
    // A cursor that is not text at all is the schema's 400.
    expect((await list(token, { organizationId: organization.id, revokedCursor: 7 })).status).toBe(400);
  });

  it("moves only through the caller's own keys: another organization's cursor starts among this one's, never shows that one's", async () => {
    const a = await memberOfNewOrganization();
    const b = await memberOfNewOrganization();
    const now = Date.now();
    const aKeys = await revokedKeys(
      a.organization.id,
      Array.from({ length: REVOKED_PAGE_SIZE + 2 }, (_, i) => new Date(now - i * 2 * 60_000)),
    );
    const bKeys = await revokedKeys(
      b.organization.id,
      Array.from({ length: 6 }, (_, i) => new Date(now - 60_000 - i * 4 * 60_000)),
    );
    const aFirst = (await list(a.token, { organizationId: a.organization.id })).json as unknown as Listed[];
    const cursor = aFirst.at(-1)!.nextRevokedCursor!;
    expect(cursor).toBeTruthy();
    const cursorAt = new Date(aFirst.at(-1)!.revokedAt!).getTime();

    const inB = await list(b.token, { organizationId: b.organization.id, revokedCursor: cursor });
    expect(inB.status).toBe(200);
    const ids = (inB.json as unknown as Listed[]).map((k) => k.id);
    expect(ids.some((id) => aKeys.includes(id))).toBe(false);
    const bRows = await prisma.apiKey.findMany({ where: { organizationId: b.organization.id, id: { in: bKeys } } });
    expect(ids).toEqual(bKeys.filter((id) => bRows.find((r) => r.id === id)!.revokedAt!.getTime() < cursorAt));
    // And with that cursor, A's organization stays closed to B's owner.
    expect((await list(b.token, { organizationId: a.organization.id, revokedCursor: cursor })).status).toBe(403);
  });
});

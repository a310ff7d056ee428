// The keys page's reads against PostgreSQL: unrevoked keys apart from the revoked history, the
// history in keyset pages (order, no duplicates or skips, stable while keys are revoked), the
// revoker's name resolved at read time, tenant isolation, a fixed number of SQL statements whatever
// the history's size, and bad cursors answered 400 by the real page.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import { loadKeysPage } from "~/api-keys/keys-page.server";
import { encodeRevokedCursor } from "~/api-keys/revoked-cursor";
import { REVOKED_PAGE_SIZE } from "~/api-keys/revoked-cursor";
import { hashSecret } from "~/api-keys/secret.server";
import type { Auth } from "~/auth/session.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { prisma } from "~/db.server";
import { isDomainError } from "~/lib/domain-error";
import { joinOrganization, memberOfNewOrganization } from "../api-key-factories";
import { issueKey, revokeKey } from "../domain-calls";
import { startInProcessServer, type InProcessServer } from "../app-server";

/** The page's data as its loader reads it: access proven first, then the search params. */
async function keysPage(auth: Auth, organizationId: string, query = "") {
  return loadKeysPage(await authorizeOrganization(auth, organizationId, "apiKey:manage"), new URLSearchParams(query));
}

/** Every revoked key, following the page links from the first page to the last. */
async function allRevokedPages(auth: Auth, organizationId: string) {
  const pages: { id: string; name: string }[][] = [];
  let query = "";
  for (;;) {
    const { revoked } = await keysPage(auth, organizationId, query);
    pages.push(revoked.keys.map(({ id, name }) => ({ id, name })));
    if (!revoked.nextCursor) return pages;
    query = `revokedCursor=${revoked.nextCursor}`;
    if (pages.length > 100) throw new Error("the pages never end");
  }
}

/** Keys written directly (fast setup); revoked ones get their revocation event, as revokeKey writes it. */
async function seedKeys(organizationId: string, keys: { name: string; revokedAt?: Date | null; expiresAt?: Date; by?: string }[]) {
  const rows = keys.map((key) => ({ id: randomUUID(), ...key }));
  await prisma.apiKey.createMany({
    data: rows.map((row) => ({
      id: row.id,
      organizationId,
      name: row.name,
      scopes: ["audit:view"],
      secretHash: new Uint8Array(hashSecret(`seed-${randomUUID()}`)),
      prefix: "sk_seed0000",
      revokedAt: row.revokedAt ?? null,
      expiresAt: row.expiresAt ?? null,
    })),
  });
  const events = rows.filter((row) => row.revokedAt && row.by);
  if (events.length) {
    await prisma.auditEvent.createMany({
      data: events.map((row) => ({
        id: uuidv7(),
        organizationId,
        createdAt: row.revokedAt!,
        action: "api_key.revoked",
        actorKind: "user" as const,
        actorId: row.by!,
        targetType: "api_key",
        targetId: row.id,
        details: { name: row.name },
        contentHash: "seed",
      })),
    });
  }
  return rows;
}

/** (revokedAt desc, id desc): the order the history promises. */
const newestRevocationFirst = (a: { revokedAt?: Date | null; id: string }, b: { revokedAt?: Date | null; id: string }) =>
  b.revokedAt!.getTime() - a.revokedAt!.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

describe("keys page: unrevoked keys and the revoked history", () => {
  it("lists only unrevoked keys (active and expired, newest first) and pages the revoked ones newest revocation first", async () => {
    const { organization, auth, user } = await memberOfNewOrganization();
    const active = await issueKey(auth, organization.id, { name: "active", scopes: ["audit:view"] });
    const expired = await issueKey(auth, organization.id, {
      name: "expired",
      scopes: ["audit:view"],
      expiresAt: new Date(Date.now() + 60_000),
    });
    await prisma.apiKey.update({
      where: { organizationId_id: { organizationId: organization.id, id: expired.key.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const revokedThroughApp = await issueKey(auth, organization.id, { name: "revoked through the app", scopes: ["audit:view"] });
    await revokeKey(auth, organization.id, revokedThroughApp.key.id);
    // 2 x SIZE + 12 more: a run of 7 revoked keys sharing one instant (the id decides) straddles the
    // first page break (rows SIZE-2 to SIZE+4, after the key revoked above), the rest an hour apart.
    const base = Date.now() - 100 * 3_600_000;
    const hourly = 2 * REVOKED_PAGE_SIZE + 5;
    const sameInstant = new Date(base + (REVOKED_PAGE_SIZE + 8.5) * 3_600_000);
    const seeded = await seedKeys(organization.id, [
      ...Array.from({ length: hourly }, (_, i) => ({ name: `old ${i}`, revokedAt: new Date(base + i * 3_600_000), by: user.id })),
      ...Array.from({ length: 7 }, (_, i) => ({ name: `same instant ${i}`, revokedAt: sameInstant, by: user.id })),
    ]);

    const page = await keysPage(auth, organization.id);
    expect(page.keys.map((k) => [k.name, k.state])).toEqual([
      ["expired", "expired"],
      ["active", "active"],
    ]);
    expect(page.revoked.isFirstPage).toBe(true);
    expect(page.revoked.keys[0]).toMatchObject({ id: revokedThroughApp.key.id, name: "revoked through the app" });
    expect(page.revoked.keys[0]!.revokedBy).toEqual({ kind: "user", name: user.name });

    const revokedRow = await prisma.apiKey.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: organization.id, id: revokedThroughApp.key.id } },
    });
    const expected = [{ id: revokedRow.id, revokedAt: revokedRow.revokedAt }, ...seeded].sort(newestRevocationFirst).map((k) => k.id);
    const pages = await allRevokedPages(auth, organization.id);
    const pageSizes = Array.from({ length: Math.ceil(expected.length / REVOKED_PAGE_SIZE) }, (_, i) =>
      Math.min(REVOKED_PAGE_SIZE, expected.length - i * REVOKED_PAGE_SIZE),
    );
    expect(pages.map((p) => p.length)).toEqual(pageSizes);
    const seen = pages.flat().map((k) => k.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expected);
    expect(seen).not.toContain(active.key.id);
    expect(seen).not.toContain(expired.key.id);
  });

  it("keeps its place while keys are revoked between pages: nothing repeats, nothing is skipped", async () => {
    const { organization, auth, user } = await memberOfNewOrganization();
    const base = Date.now() - 1000 * 60_000;
    const seeded = await seedKeys(
      organization.id,
      Array.from({ length: REVOKED_PAGE_SIZE + 5 }, (_, i) => ({ name: `k${i}`, revokedAt: new Date(base + i * 60_000), by: user.id })),
    );
    const first = await keysPage(auth, organization.id);
    // Revoked after the first page was read: newer than everything, so it belongs to page one, not two.
    const late = await issueKey(auth, organization.id, { name: "late", scopes: ["audit:view"] });
    await revokeKey(auth, organization.id, late.key.id);
    const second = await keysPage(auth, organization.id, `revokedCursor=${first.revoked.nextCursor}`);
    expect(second.revoked.isFirstPage).toBe(false);
    expect(second.revoked.nextCursor).toBeNull();
    const ids = [...first.revoked.keys, ...second.revoked.keys].map((k) => k.id);
    expect(ids).toEqual([...seeded].sort(newestRevocationFirst).map((k) => k.id));
    expect((await keysPage(auth, organization.id)).revoked.keys[0]!.id).toBe(late.key.id);
  });

  it("a cursor past the end is an empty page, not an error", async () => {
    const { organization, auth, user } = await memberOfNewOrganization();
    await seedKeys(organization.id, [{ name: "only", revokedAt: new Date(Date.now() - 60_000), by: user.id }]);
    const past = encodeRevokedCursor({ revokedAt: new Date("2001-01-01T00:00:00.000Z"), id: randomUUID() });
    const page = await keysPage(auth, organization.id, `revokedCursor=${past}`);
    expect(page.revoked).toEqual({ keys: [], nextCursor: null, isFirstPage: false });
  });

  it("shows the revoker's current name: a rename shows the new name, a deleted account shows as deleted, no event as unknown", async () => {
    const { organization, auth, user: owner } = await memberOfNewOrganization();
    const admin = await joinOrganization(organization.id, "admin");
    const leaver = await joinOrganization(organization.id, "admin");
    const byOwner = await issueKey(auth, organization.id, { name: "by owner", scopes: ["audit:view"] });
    const byAdmin = await issueKey(auth, organization.id, { name: "by admin", scopes: ["audit:view"] });
    const byLeaver = await issueKey(auth, organization.id, { name: "by leaver", scopes: ["audit:view"] });
    await revokeKey(auth, organization.id, byOwner.key.id);
    await revokeKey(admin.auth, organization.id, byAdmin.key.id);
    await revokeKey(leaver.auth, organization.id, byLeaver.key.id);
    // Revoked outside the app: no event names anyone.
    await seedKeys(organization.id, [{ name: "silent", revokedAt: new Date(Date.now() - 3_600_000) }]);

    const revokers = async () =>
      Object.fromEntries((await keysPage(auth, organization.id)).revoked.keys.map((k) => [k.name, k.revokedBy] as const));
    expect(await revokers()).toEqual({
      "by owner": { kind: "user", name: owner.name },
      "by admin": { kind: "user", name: admin.user.name },
      "by leaver": { kind: "user", name: leaver.user.name },
      silent: { kind: "unknown" },
    });

    await prisma.user.update({ where: { id: admin.user.id }, data: { name: "Renamed Admin" } });
    await prisma.user.update({ where: { id: owner.id }, data: { deletedAt: new Date() } });
    await prisma.user.delete({ where: { id: leaver.user.id } });
    const after = await revokers();
    expect(after).toEqual({
      "by owner": { kind: "deletedUser" },
      "by admin": { kind: "user", name: "Renamed Admin" },
      "by leaver": { kind: "deletedUser" },
      silent: { kind: "unknown" },
    });
    // Never an id in place of a name.
    const text = JSON.stringify(await keysPage(auth, organization.id));
    for (const id of [owner.id, admin.user.id, leaver.user.id]) expect(text).not.toContain(id);
  });

  it("never shows another organization's keys or revokers, whatever cursor it is given", async () => {
    const a = await memberOfNewOrganization();
    const b = await memberOfNewOrganization();
    const now = Date.now();
    const keysA = await seedKeys(a.organization.id, [
      { name: "A unrevoked" },
      ...Array.from({ length: 25 }, (_, i) => ({ name: `A revoked ${i}`, revokedAt: new Date(now - (2 * i + 1) * 60_000), by: a.user.id })),
    ]);
    const keysB = await seedKeys(b.organization.id, [
      { name: "B unrevoked" },
      ...Array.from({ length: 25 }, (_, i) => ({ name: `B revoked ${i}`, revokedAt: new Date(now - 2 * i * 60_000), by: b.user.id })),
    ]);
    // An event in B that claims to have revoked one of A's keys must not name B's user on A's page.
    const [unclaimed] = await seedKeys(a.organization.id, [{ name: "A revoked, no event", revokedAt: new Date(now - 30_000) }]);
    await prisma.auditEvent.create({
      data: {
        id: uuidv7(),
        organizationId: b.organization.id,
        createdAt: new Date(now - 30_000),
        action: "api_key.revoked",
        actorKind: "user",
        actorId: b.user.id,
        targetType: "api_key",
        targetId: unclaimed!.id,
        details: { name: "x" },
        contentHash: "seed",
      },
    });

    const idsOfB = new Set<string>(keysB.map((k) => k.id));
    const pageA = await keysPage(a.auth, a.organization.id);
    expect(pageA.keys.map((k) => k.name)).toEqual(["A unrevoked"]);
    expect(pageA.revoked.keys.find((k) => k.id === unclaimed!.id)?.revokedBy).toEqual({ kind: "unknown" });
    const seenA = (await allRevokedPages(a.auth, a.organization.id)).flat();
    expect(seenA.map((k) => k.id).sort()).toEqual([...keysA.filter((k) => k.revokedAt), unclaimed!].map((k) => k.id).sort());

    // B's cursors, used in A, only say where to start among A's own keys.
    const pageB = await keysPage(b.auth, b.organization.id);
    expect(pageB.revoked.nextCursor).not.toBeNull();
    const withCursorOfB = await keysPage(a.auth, a.organization.id, `revokedCursor=${pageB.revoked.nextCursor}`);
    expect(withCursorOfB.revoked.keys.length).toBeGreaterThan(0);
    for (const key of [...withCursorOfB.keys, ...withCursorOfB.revoked.keys]) expect(idsOfB.has(key.id)).toBe(false);
    for (const key of withCursorOfB.revoked.keys) expect(key.name).toMatch(/^A /);

    // Reading B's page needs B: A's member is refused before any cursor is looked at.
    await expect(keysPage(a.auth, b.organization.id, "revokedCursor=garbage")).rejects.toSatisfy(
      (e) => isDomainError(e) && e.code === "FORBIDDEN",
    );
  });

  it("reads a fixed handful of SQL statements per page, however long the history", async () => {
    const { organization, auth, user } = await memberOfNewOrganization();
    await seedKeys(organization.id, [{ name: "in use" }]);
    const access = await authorizeOrganization(auth, organization.id, "apiKey:manage");
    const statements = async (query = "") => {
      const spy = vi.spyOn(pg.Client.prototype, "query");
      try {
        await loadKeysPage(access, new URLSearchParams(query));
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    await seedKeys(organization.id, [{ name: "revoked", revokedAt: new Date(Date.now() - 1000), by: user.id }]);
    const few = await statements();
    const base = Date.now() - 10_000 * 60_000;
    await seedKeys(
      organization.id,
      Array.from({ length: 600 }, (_, i) => ({ name: `old ${i}`, revokedAt: new Date(base + i * 60_000), by: user.id })),
    );
    const many = await statements();
    const { revoked } = await keysPage(auth, organization.id);
    const later = await statements(`revokedCursor=${revoked.nextCursor}`);
    expect(few).toBeLessThanOrEqual(4);
    expect([many, later]).toEqual([few, few]);
  });
});

describe("keys page over HTTP", () => {
  let server: InProcessServer;
  let origin: string;

  beforeAll(async () => {
    server = await startInProcessServer();
    origin = server.origin;
  });

  afterAll(() => server.close());

  const PATH = "/dashboard/organization-settings/api-keys";

  it("answers a bad revokedCursor with a translated 400 (English and German), never a 500", async () => {
    const { organization, token, user } = await memberOfNewOrganization();
    await seedKeys(organization.id, [{ name: "old", revokedAt: new Date(Date.now() - 60_000), by: user.id }]);
    const cookie = `${sessionCookieName()}=${token}`;
    const id = randomUUID();
    const bad = [
      "garbage",
      "%00",
      "%E2%80%AE",
      "A".repeat(3000),
      Buffer.from(`2026-02-30T00:00:00.000Z|${id}`).toString("base64url"),
      Buffer.from(`2026-11-22T00:00:00.000Z|${id}|${organization.id}`).toString("base64url"),
      Buffer.from(`1969-12-31T23:59:59.999Z|${id}`).toString("base64url"),
    ];
    for (const value of bad) {
      const response = await fetch(`${origin}${PATH}?revokedCursor=${value}`, { headers: { cookie, accept: "text/html" } });
      expect(response.status, value.slice(0, 40)).toBe(400);
      expect(await response.text()).toContain("The link to this page of revoked keys is invalid.");
    }
    const german = await fetch(`${origin}${PATH}?revokedCursor=x&lng=de`, { headers: { cookie } });
    expect(german.status).toBe(400);
    expect(await german.text()).toContain("Der Link zu dieser Seite widerrufener Schlüssel ist ungültig.");
    // The data request of a client-side navigation says the same.
    const data = await fetch(`${origin}${PATH}.data?revokedCursor=x`, { headers: { cookie } });
    expect(data.status).toBe(400);
  });

  it("renders unrevoked keys and one page of revoked keys with who revoked them, history links and a plain link to older ones", async () => {
    const { organization, token, user } = await memberOfNewOrganization();
    const keys = await seedKeys(organization.id, [
      { name: "Deploy bot" },
      ...Array.from({ length: REVOKED_PAGE_SIZE + 1 }, (_, i) => ({
        name: `Retired ${i}`,
        revokedAt: new Date(Date.now() - (i + 1) * 60_000),
        by: user.id,
      })),
    ]);
    const response = await fetch(`${origin}${PATH}`, { headers: { cookie: `${sessionCookieName()}=${token}` } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Deploy bot");
    expect(html).toContain("Retired 0");
    expect(html).not.toContain(`Retired ${REVOKED_PAGE_SIZE}<`); // on the next page
    expect(html).toContain(`by ${user.name}`);
    expect(html).toContain(`/dashboard/organization-settings/audit-log?targetId=${keys[0]!.id}`);
    expect(html).toContain(`aria-label="History of Deploy bot"`);
    const older = html.match(/href="([^"]*revokedCursor=[^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
    expect(older).toMatch(new RegExp(`^${PATH}\\?revokedCursor=[A-Za-z0-9_-]+#revoked-keys$`));
    const next = await (
      await fetch(`${origin}${older!.replace(/#.*/, "")}`, { headers: { cookie: `${sessionCookieName()}=${token}` } })
    ).text();
    expect(next).toContain(`Retired ${REVOKED_PAGE_SIZE}<`);
    expect(next).not.toContain("Retired 0<");
  });
});

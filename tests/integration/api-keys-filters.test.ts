// Finding keys (issue 33, deliverable 6; decision 0059) against PostgreSQL: the keys page's loader
// and apiKey.list narrow by search (name, or prefix from `sk_`), scope and state and sort by
// creation or last use, the revoked history's keyset pages following the sort; another
// organization's keys never show or count; bad values are a translated 400; the unfiltered page
// sends exactly the statements it sent before, a filtered one one more, whatever the history's size.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authorizeOrganization } from "~/access/organization-access.server";
import type { ApiKeyScope } from "~/access/api-key-scopes";
import { loadKeysPage } from "~/api-keys/keys-page.server";
import { REVOKED_PAGE_SIZE } from "~/api-keys/revoked-cursor";
import { generateSecret, hashSecret } from "~/api-keys/secret.server";
import type { Auth } from "~/auth/session.server";
import { sessionCookieName } from "~/auth/cookies.server";
import { pool, prisma } from "~/db.server";
import { callRpc, memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";
import { queryOnce } from "../../scripts/lib/pg-client.ts";

interface Seed {
  name: string;
  prefix?: string;
  scopes?: ApiKeyScope[];
  revokedAt?: Date;
  expiresAt?: Date;
  lastUsedAt?: Date;
  createdAt?: Date;
}

/** Keys straight into the table (fast setup), with the columns the filters read. */
async function seedKeys(organizationId: string, keys: Seed[]) {
  const rows = keys.map((key) => ({ id: randomUUID() as string, ...key }));
  await prisma.apiKey.createMany({
    data: rows.map((row) => ({
      id: row.id,
      organizationId,
      name: row.name,
      scopes: row.scopes ?? ["audit:view"],
      secretHash: new Uint8Array(hashSecret(`seed-${randomUUID()}`)),
      prefix: row.prefix ?? "sk_seed0000",
      revokedAt: row.revokedAt ?? null,
      expiresAt: row.expiresAt ?? null,
      lastUsedAt: row.lastUsedAt ?? null,
      ...(row.createdAt ? { createdAt: row.createdAt } : {}),
    })),
  });
  return rows;
}

async function keysPage(auth: Auth, organizationId: string, query = "") {
  return loadKeysPage(await authorizeOrganization(auth, organizationId, "apiKey:manage"), new URLSearchParams(query));
}

const names = (keys: { name: string }[]) => keys.map((k) => k.name);
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** An organization with keys of every kind the filters tell apart. */
async function organizationWithKeys() {
  const member = await memberOfNewOrganization();
  const rows = await seedKeys(member.organization.id, [
    {
      name: "Deploy Bot",
      prefix: "sk_DeP10yAa",
      scopes: ["audit:view", "member:read"],
      lastUsedAt: minutesAgo(5),
      createdAt: minutesAgo(50),
    },
    { name: "billing export", prefix: "sk_Bi11ingB", scopes: ["billing:view"], createdAt: minutesAgo(40) },
    { name: "old deploy", prefix: "sk_01dDepCc", expiresAt: minutesAgo(1), lastUsedAt: minutesAgo(30), createdAt: minutesAgo(30) },
    { name: "100%_literal", prefix: "sk_Pct10000", createdAt: minutesAgo(20) },
    { name: "retired deploy", prefix: "sk_ReTiReDd", revokedAt: minutesAgo(3), lastUsedAt: minutesAgo(60), createdAt: minutesAgo(90) },
    { name: "retired billing", prefix: "sk_ReTbi11E", scopes: ["billing:view"], revokedAt: minutesAgo(2), createdAt: minutesAgo(80) },
  ]);
  return { ...member, rows };
}

describe("keys page: filters and sort", () => {
  it("narrows both lists by name (case-insensitive, anywhere, % and _ as plain characters) and counts n of m", async () => {
    const { auth, organization } = await organizationWithKeys();
    const page = await keysPage(auth, organization.id, "q=DEPLOY");
    expect(names(page.keys)).toEqual(["old deploy", "Deploy Bot"]);
    expect(names(page.revoked.keys)).toEqual(["retired deploy"]);
    expect(page.counts).toEqual({ matching: 3, total: 6, unrevoked: 4 });
    expect(page.unrevokedCount).toBe(4);
    expect(names((await keysPage(auth, organization.id, "q=%25_")).keys)).toEqual(["100%_literal"]);
    expect(names((await keysPage(auth, organization.id, "q=_")).keys)).toEqual(["100%_literal"]);
    // Without filters: no count is read, the limit goes by the list itself.
    const all = await keysPage(auth, organization.id);
    expect([all.counts, all.unrevokedCount, all.keys.length, all.revoked.keys.length]).toEqual([null, 4, 4, 2]);
  });

  it("matches the start of a prefix for a search from sk_: the link of the expiry reminder (?q=<prefix>) finds its key", async () => {
    const { auth, organization } = await organizationWithKeys();
    expect(names((await keysPage(auth, organization.id, "q=sk_DeP10yAa")).keys)).toEqual(["Deploy Bot"]);
    expect(names((await keysPage(auth, organization.id, "q=sk_dep10y")).keys)).toEqual(["Deploy Bot"]);
    expect(names((await keysPage(auth, organization.id, "q=sk_Re")).revoked.keys)).toEqual(["retired billing", "retired deploy"]);
    // Not from sk_: a name search only (no name holds "DeP10y").
    expect((await keysPage(auth, organization.id, "q=DeP10y")).counts?.matching).toBe(0);
  });

  it("searches a pasted whole secret by its prefix only, says so, and keeps nothing of the rest", async () => {
    const { auth, organization } = await memberOfNewOrganization();
    const { secret, prefix } = generateSecret(organization.id);
    await seedKeys(organization.id, [{ name: "leaky", prefix }]);
    const page = await keysPage(auth, organization.id, `q=${encodeURIComponent(secret)}`);
    expect(page.queryShortened).toBe(true);
    expect(page.filters.query).toBe(prefix);
    expect(names(page.keys)).toEqual(["leaky"]);
    expect(JSON.stringify(page)).not.toContain(secret.slice(prefix.length));
  });

  it("filters by scope and by state: revoked shows only the history, active or expired only the keys in use", async () => {
    const { auth, organization } = await organizationWithKeys();
    const billing = await keysPage(auth, organization.id, "scope=billing:view");
    expect([names(billing.keys), names(billing.revoked.keys)]).toEqual([["billing export"], ["retired billing"]]);
    const revoked = await keysPage(auth, organization.id, "state=revoked");
    expect([names(revoked.keys), names(revoked.revoked.keys), revoked.counts?.matching]).toEqual([
      [],
      ["retired billing", "retired deploy"],
      2,
    ]);
    const expired = await keysPage(auth, organization.id, "state=expired");
    expect([names(expired.keys), expired.revoked.keys, expired.counts?.matching]).toEqual([["old deploy"], [], 1]);
    const active = await keysPage(auth, organization.id, "state=active&q=deploy");
    expect([names(active.keys), active.revoked.keys, active.counts]).toEqual([["Deploy Bot"], [], { matching: 1, total: 6, unrevoked: 4 }]);
  });

  it("sorts by last use, most recent first and never-used keys last, in both lists", async () => {
    const { auth, organization } = await organizationWithKeys();
    const page = await keysPage(auth, organization.id, "sort=lastUsed");
    // Never-used keys last (among themselves by id, like every tie).
    expect(names(page.keys).slice(0, 2)).toEqual(["Deploy Bot", "old deploy"]);
    expect(names(page.keys).slice(2).sort()).toEqual(["100%_literal", "billing export"]);
    expect(names(page.revoked.keys)).toEqual(["retired deploy", "retired billing"]);
    expect(page.revoked.keys.map((k) => k.lastUsedAt === null)).toEqual([false, true]);
    // The default: keys in use newest first, the history newest revocation first.
    const byCreation = await keysPage(auth, organization.id, "sort=created");
    expect(names(byCreation.keys)).toEqual(["100%_literal", "old deploy", "billing export", "Deploy Bot"]);
    expect(names(byCreation.revoked.keys)).toEqual(["retired billing", "retired deploy"]);
  });

  it("pages the history by last use with its own cursor: every key once, ties and never-used keys included; a cursor of the other order is a 400", async () => {
    const { auth, organization } = await memberOfNewOrganization();
    const sameUse = minutesAgo(100);
    const seeded = await seedKeys(organization.id, [
      ...Array.from({ length: REVOKED_PAGE_SIZE + 3 }, (_, i) => ({
        name: `used ${i}`,
        lastUsedAt: minutesAgo(200 + i),
        revokedAt: minutesAgo(1),
      })),
      ...Array.from({ length: 4 }, (_, i) => ({ name: `tie ${i}`, lastUsedAt: sameUse, revokedAt: minutesAgo(2) })),
      ...Array.from({ length: REVOKED_PAGE_SIZE }, (_, i) => ({ name: `never ${i}`, revokedAt: minutesAgo(3 + i) })),
    ]);
    const expected = [...seeded]
      .sort((a, b) => (b.lastUsedAt?.getTime() ?? -Infinity) - (a.lastUsedAt?.getTime() ?? -Infinity) || (a.id < b.id ? 1 : -1))
      .map((k) => k.id);
    const seen: string[] = [];
    let query = "sort=lastUsed";
    let firstCursor: string | null = null;
    for (let pages = 0; ; pages++) {
      const { revoked } = await keysPage(auth, organization.id, query);
      seen.push(...revoked.keys.map((k) => k.id));
      if (!revoked.nextCursor) break;
      firstCursor ??= revoked.nextCursor;
      query = `sort=lastUsed&revokedCursor=${revoked.nextCursor}`;
      expect(pages).toBeLessThan(10);
    }
    expect(seen).toEqual(expected);
    await expect(keysPage(auth, organization.id, `revokedCursor=${firstCursor}`)).rejects.toMatchObject({
      code: "BAD_REQUEST",
      messageKey: "apiKey.badRevokedCursor",
    });
    const byRevocation = (await keysPage(auth, organization.id)).revoked.nextCursor;
    await expect(keysPage(auth, organization.id, `sort=lastUsed&revokedCursor=${byRevocation}`)).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("never shows or counts another organization's keys, whatever the filters", async () => {
    const a = await organizationWithKeys();
    const b = await organizationWithKeys();
    const idsOfB = new Set(b.rows.map((k) => k.id));
    for (const query of ["q=deploy", "q=sk_", "scope=billing:view", "state=revoked", "state=expired", "sort=lastUsed", "q=DeP10y"]) {
      const page = await keysPage(a.auth, a.organization.id, query);
      for (const key of [...page.keys, ...page.revoked.keys]) expect(idsOfB.has(key.id), query).toBe(false);
      if (page.counts) expect(page.counts.total, query).toBe(6);
    }
    await expect(keysPage(a.auth, b.organization.id, "q=deploy")).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("sends the same statements unfiltered as before filters existed, and one more filtered, however long the history", async () => {
    const { organization, auth } = await memberOfNewOrganization();
    await seedKeys(organization.id, [{ name: "in use" }, { name: "revoked", revokedAt: minutesAgo(1) }]);
    const access = await authorizeOrganization(auth, organization.id, "apiKey:manage");
    const statements = async (query = "") => {
      const spy = vi.spyOn(pg.Client.prototype, "query");
      try {
        await loadKeysPage(access, new URLSearchParams(query));
        return spy.mock.calls.map(([config]) => (typeof config === "string" ? config : (config as { text: string }).text));
      } finally {
        spy.mockRestore();
      }
    };
    const plain = await statements();
    // The two reads of the page before filters: the keys in use, one page of the history.
    expect(plain).toHaveLength(2);
    for (const text of plain) expect(text).not.toMatch(/strpos|starts_with|ANY\(k\.scopes\)|expires_at [<>]|count\(/);
    const sortedOnly = await statements("sort=lastUsed");
    const filtered = await statements("q=use&scope=audit:view&sort=lastUsed");
    await seedKeys(
      organization.id,
      Array.from({ length: 500 }, (_, i) => ({ name: `old use ${i}`, revokedAt: minutesAgo(10 + i), lastUsedAt: minutesAgo(i) })),
    );
    expect([
      (await statements()).length,
      sortedOnly.length,
      filtered.length,
      (await statements("q=use&scope=audit:view&sort=lastUsed")).length,
    ]).toEqual([2, 2, 3, 3]);
    expect((await statements("state=revoked&q=use")).length).toBe(2);
  });
});

describe("the history's reads stay on indexes", () => {
  interface PlanNode {
    "Node Type": string;
    "Relation Name"?: string;
    "Index Name"?: string;
    "Plan Rows"?: number;
    Plans?: PlanNode[];
  }

  /** The statements the page sends for `query`, as sent (text and values). */
  async function statementsOf(access: Parameters<typeof loadKeysPage>[0], query: string) {
    const spy = vi.spyOn(pg.Client.prototype, "query");
    try {
      await loadKeysPage(access, new URLSearchParams(query));
      return spy.mock.calls.map(([config]) => config as unknown as { text: string; values: unknown[] });
    } finally {
      spy.mockRestore();
    }
  }

  it("reads a page of the history by last use, and by revocation, through its index, with or without a cursor", async () => {
    const { auth, organization } = await memberOfNewOrganization();
    await pool().query(
      `INSERT INTO api_keys (id, organization_id, name, scopes, secret_hash, prefix, revoked_at, last_used_at)
       SELECT gen_random_uuid(), $1::uuid, 'old ' || i, ARRAY['audit:view'], sha256(convert_to(gen_random_uuid()::text, 'UTF8')), 'sk_seed0000',
              now() - i * interval '1 minute', CASE WHEN i % 3 = 0 THEN NULL ELSE now() - (i % 500) * interval '1 hour' END
       FROM generate_series(1, 3000) AS i`,
      [organization.id],
    );
    await queryOnce(process.env.DATABASE_URL!, "ANALYZE api_keys");
    const access = await authorizeOrganization(auth, organization.id, "apiKey:manage");
    const byUse = await loadKeysPage(access, new URLSearchParams("sort=lastUsed"));
    const byRevocation = await loadKeysPage(access, new URLSearchParams());
    const cases: [string, string][] = [
      ["sort=lastUsed", "api_keys_revoked_last_used_idx"],
      [`sort=lastUsed&revokedCursor=${byUse.revoked.nextCursor}`, "api_keys_revoked_last_used_idx"],
      ["", "api_keys_organization_id_revoked_at_id_idx"],
      [`revokedCursor=${byRevocation.revoked.nextCursor}`, "api_keys_organization_id_revoked_at_id_idx"],
    ];
    for (const [query, index] of cases) {
      const history = (await statementsOf(access, query)).find((s) => s.text.includes("revoked_at IS NOT NULL"))!;
      const { rows } = await pool().query<{ "QUERY PLAN": { Plan: PlanNode }[] }>({
        text: `EXPLAIN (FORMAT JSON) ${history.text}`,
        values: history.values,
      });
      const nodes: PlanNode[] = [];
      const walk = (node: PlanNode) => {
        nodes.push(node);
        node.Plans?.forEach(walk);
      };
      walk(rows[0]!["QUERY PLAN"][0]!.Plan);
      const onKeys = nodes.filter((n) => n["Relation Name"] === "api_keys");
      expect(
        onKeys.map((n) => [n["Node Type"], n["Index Name"]]),
        query,
      ).toEqual([["Index Scan", index]]);
      // A sort, if any, orders the page's few rows, never the organization's keys.
      for (const sort of nodes.filter((n) => n["Node Type"].includes("Sort"))) expect(sort["Plan Rows"], query).toBeLessThanOrEqual(20);
    }
  });
});

describe("apiKey.list: the same filters", () => {
  const list = (token: string, input: Record<string, unknown>, headers: Record<string, string> = {}) =>
    callRpc("apiKey/list", { sessionToken: token, input, headers });
  type Listed = { id: string; name: string; state: string; nextRevokedCursor?: string };

  it("narrows and sorts both parts as the page does; state leaves out the part it excludes", async () => {
    const { token, organization } = await organizationWithKeys();
    const answer = async (input: Record<string, unknown>) => {
      const response = await list(token, { organizationId: organization.id, ...input });
      expect(response.status, JSON.stringify(input)).toBe(200);
      return response.json as unknown as Listed[];
    };
    expect(names(await answer({ query: "deploy" }))).toEqual(["old deploy", "Deploy Bot", "retired deploy"]);
    expect(names(await answer({ query: "sk_re" }))).toEqual(["retired billing", "retired deploy"]);
    expect(names(await answer({ scope: "billing:view", state: "revoked" }))).toEqual(["retired billing"]);
    expect(names(await answer({ state: "expired" }))).toEqual(["old deploy"]);
    const byUse = names(await answer({ sort: "lastUsed" }));
    expect([...byUse.slice(0, 2), ...byUse.slice(2, 4).sort(), ...byUse.slice(4)]).toEqual([
      "Deploy Bot",
      "old deploy",
      "100%_literal",
      "billing export",
      "retired deploy",
      "retired billing",
    ]);
  });

  it("pages revoked keys by last use with nextRevokedCursor; the cursor must be of the sort's order", async () => {
    const { token, organization } = await memberOfNewOrganization();
    const seeded = await seedKeys(
      organization.id,
      Array.from({ length: REVOKED_PAGE_SIZE + 4 }, (_, i) => ({
        name: `r${i}`,
        revokedAt: minutesAgo(i),
        ...(i % 3 ? { lastUsedAt: minutesAgo(100 - i) } : {}),
      })),
    );
    const first = (await list(token, { organizationId: organization.id, sort: "lastUsed", state: "revoked" })).json as unknown as Listed[];
    const cursor = first.at(-1)!.nextRevokedCursor!;
    const second = (await list(token, { organizationId: organization.id, sort: "lastUsed", revokedCursor: cursor }))
      .json as unknown as Listed[];
    const expected = [...seeded]
      .sort((a, b) => (b.lastUsedAt?.getTime() ?? -Infinity) - (a.lastUsedAt?.getTime() ?? -Infinity) || (a.id < b.id ? 1 : -1))
      .map((k) => k.id);
    expect([...first, ...second].map((k) => k.id)).toEqual(expected);
    const mismatched = await list(token, { organizationId: organization.id, revokedCursor: cursor });
    expect([mismatched.status, mismatched.json.code]).toEqual([400, "BAD_REQUEST"]);
  });

  it("refuses bad values with a translated 400 (English and German) and never echoes a pasted secret", async () => {
    const { token, organization } = await memberOfNewOrganization();
    const { secret } = generateSecret(organization.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ scope: "audit:write" }, "Filter by one of the scopes organization:read"],
      [{ state: "deleted" }, "Filter by the state active, expired or revoked."],
      [{ sort: "name" }, "Sort by created or lastUsed."],
      [{ query: "x".repeat(101) }, "Search for at most 100 characters"],
      [{ query: "a\u0000b" }, "Search with plain text"],
      [{ query: secret }, "query looks like a whole secret."],
      [{ query: `${secret}\u0007${"y".repeat(1000)}` }, "query looks like a whole secret."],
    ];
    for (const [input, message] of cases) {
      const response = await list(token, { organizationId: organization.id, ...input });
      expect([response.status, response.json.code], JSON.stringify(input).slice(0, 60)).toEqual([400, "BAD_REQUEST"]);
      expect(response.text).toContain(message);
      expect(response.text).not.toContain(secret.slice(12));
    }
    const german = await list(token, { organizationId: organization.id, state: "weg" }, { "accept-language": "de" });
    expect(german.status).toBe(400);
    expect(german.text).toContain("Filtern Sie nach dem Zustand active, expired oder revoked.");
    expect((await list(token, { organizationId: organization.id, filter: "x" })).status).toBe(400);
  });

  it("keeps to the caller's organization", async () => {
    const a = await organizationWithKeys();
    const b = await organizationWithKeys();
    const idsOfB = new Set(b.rows.map((k) => k.id));
    const answer = (await list(a.token, { organizationId: a.organization.id, query: "sk_", sort: "lastUsed" })).json as unknown as Listed[];
    expect(answer).toHaveLength(6);
    expect(answer.some((k) => idsOfB.has(k.id))).toBe(false);
    expect((await list(a.token, { organizationId: b.organization.id, query: "deploy" })).status).toBe(403);
  });
});

describe("keys page filters over HTTP", () => {
  let server: InProcessServer;
  beforeAll(async () => {
    server = await startInProcessServer();
  });
  afterAll(() => server.close());
  const PATH = "/dashboard/organization-settings/api-keys";

  it("answers bad filter values with a translated 400 (English and German), never a 500", async () => {
    const { token } = await memberOfNewOrganization();
    const cookie = `${sessionCookieName()}=${token}`;
    const cases: [string, string][] = [
      ["scope=nope", "Filter by one of the scopes"],
      ["state=gone", "Filter by the state active, expired or revoked."],
      ["sort=name", "Sort by created or lastUsed."],
      ["state=active&state=expired", "Give each filter (q, scope, state, sort) only once."],
      [`q=${"n".repeat(101)}`, "Search for at most 100 characters"],
      ["q=%00", "Search with plain text"],
      ["q=%E2%80%AE", "Search with plain text"],
    ];
    for (const [query, message] of cases) {
      const response = await fetch(`${server.origin}${PATH}?${query}`, { headers: { cookie } });
      expect(response.status, query).toBe(400);
      expect(await response.text()).toContain(message);
    }
    const german = await fetch(`${server.origin}${PATH}?sort=x&lng=de`, { headers: { cookie } });
    expect(german.status).toBe(400);
    expect(await german.text()).toContain("Sortieren Sie nach created oder lastUsed.");
    const data = await fetch(`${server.origin}${PATH}.data?state=x`, { headers: { cookie } });
    expect(data.status).toBe(400);
  });

  it("renders the filters the URL applies, n of m, and a pasted secret only as its prefix", async () => {
    const { token, organization } = await organizationWithKeys();
    const cookie = `${sessionCookieName()}=${token}`;
    const html = await (await fetch(`${server.origin}${PATH}?q=deploy&scope=&state=&sort=lastUsed`, { headers: { cookie } })).text();
    expect(html).toContain('value="deploy"');
    expect(html).toContain("3 of 6 keys match");
    expect(html).toMatch(/<option value="lastUsed" selected="">/);
    expect(html).not.toContain("billing export");

    const { secret, prefix } = generateSecret(organization.id);
    const pasted = await fetch(`${server.origin}${PATH}?q=${encodeURIComponent(secret)}`, { headers: { cookie } });
    expect(pasted.status).toBe(200);
    const body = await pasted.text();
    expect(body).toContain(`value="${prefix}"`);
    expect(body).toContain("That looked like a whole secret.");
    expect(body).not.toContain(secret.slice(prefix.length));
    // Pasted with the whitespace around it that a copy often carries: the search trims it, and so
    // must everything else that repeats the address (the language links).
    for (const padded of [` ${secret}`, `\n${secret}\t`, `  ${secret}`]) {
      const page = await (await fetch(`${server.origin}${PATH}?q=${encodeURIComponent(padded)}`, { headers: { cookie } })).text();
      expect(page).toContain(`value="${prefix}"`);
      expect(page, JSON.stringify(padded)).not.toContain(secret.slice(prefix.length));
    }

    const none = await (await fetch(`${server.origin}${PATH}?q=nothing-like-it`, { headers: { cookie } })).text();
    expect(none).toContain("No key matches these filters");
    expect(none).toContain("0 of 6 keys match");
  });
});

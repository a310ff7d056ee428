// The keys' filters and sort as SQL, for every read that lists keys (the keys page's two lists,
// apiKey.list, the page's "n of m keys match"): one rule, on `api_keys k`. Without filters each
// fragment is empty, so the unfiltered reads send the statements they always sent
// (docs/decisions/0059-findable-keys.md).
import { queryPrepared } from "~/db.server";
import { Prisma } from "~/generated/prisma/client";
import type { OrganizationAccess } from "~/access/organization-access.server";
import { searchesPrefix, type KeyFilters, type KeySort } from "./key-filters";
import type { RevokedCursor } from "./revoked-cursor";

/** `AND …` for the search and the scope: the name contains the search (case-insensitive; strpos,
 * so `%` and `_` are plain characters), or, for a search starting `sk_`, the prefix starts with it. */
export function keyMatchSql(filters: KeyFilters): Prisma.Sql {
  const parts: Prisma.Sql[] = [];
  if (filters.query !== null) {
    const nameHas = Prisma.sql`strpos(lower(k.name), lower(${filters.query}::text)) > 0`;
    parts.push(
      searchesPrefix(filters.query)
        ? Prisma.sql`AND (${nameHas} OR starts_with(lower(k.prefix), lower(${filters.query}::text)))`
        : Prisma.sql`AND ${nameHas}`,
    );
  }
  if (filters.scope !== null) parts.push(Prisma.sql`AND ${filters.scope}::text = ANY(k.scopes)`);
  return parts.length ? Prisma.join(parts, " ") : Prisma.empty;
}

/** `AND …` for active or expired among unrevoked keys, at `now` (the rule of keyState). */
export function unrevokedStateSql(state: KeyFilters["state"], now: Date): Prisma.Sql {
  if (state === "active") return Prisma.sql`AND (k.expires_at IS NULL OR k.expires_at > ${now}::timestamptz)`;
  if (state === "expired") return Prisma.sql`AND k.expires_at <= ${now}::timestamptz`;
  return Prisma.empty;
}

/** The keys in use: newest first (as always), or most recently used first, never-used keys last. */
export function unrevokedOrderSql(sort: KeySort): Prisma.Sql {
  return sort === "lastUsed" ? Prisma.sql`k.last_used_at DESC NULLS LAST, k.id DESC` : Prisma.sql`k.created_at DESC, k.id DESC`;
}

/** Never used sorts below every use: the history's order by last use is on this value (and its index,
 * api_keys_revoked_last_used_idx), so a keyset row comparison needs no NULL cases. */
const LAST_USED_OR_NEVER = Prisma.sql`COALESCE(k.last_used_at, '-infinity'::timestamptz)`;

/** The revoked history: newest revocation first (as always), or by last use. */
export function historyOrderSql(sort: KeySort): Prisma.Sql {
  return sort === "lastUsed" ? Prisma.sql`${LAST_USED_OR_NEVER} DESC, k.id DESC` : Prisma.sql`k.revoked_at DESC, k.id DESC`;
}

/** Which cursor the history's order takes: a cursor of the other order is refused (400). */
export const historyCursorOrder = (sort: KeySort) => (sort === "lastUsed" ? "lastUsed" : "revoked");

/** `AND …` for the rows after `cursor` in its order. */
export function historyAfterSql(cursor: RevokedCursor | undefined): Prisma.Sql {
  if (!cursor) return Prisma.empty;
  if ("revokedAt" in cursor)
    return Prisma.sql`AND (k.revoked_at, k.id) < (${cursor.revokedAt.toISOString()}::timestamptz, ${cursor.id}::uuid)`;
  const at = cursor.lastUsedAt?.toISOString() ?? "-infinity";
  return Prisma.sql`AND (${LAST_USED_OR_NEVER}, k.id) < (${at}::timestamptz, ${cursor.id}::uuid)`;
}

export interface KeyCounts {
  /** Keys of the organization (in use and revoked) that the filters let through. */
  matching: number;
  /** Every key of the organization, in use and revoked. */
  total: number;
  /** Unrevoked keys, unfiltered: what the 25-key limit counts. */
  unrevoked: number;
}

/**
 * "n of m keys match", read only when filters narrow the lists: one statement over the
 * organization's keys (its primary-key range), so a filtered page costs one statement more than an
 * unfiltered one, whatever the number of keys.
 */
export async function countKeys(access: OrganizationAccess<"apiKey:manage">, filters: KeyFilters, now: Date): Promise<KeyCounts> {
  const state =
    filters.state === "revoked"
      ? Prisma.sql`AND k.revoked_at IS NOT NULL`
      : filters.state
        ? Prisma.sql`AND k.revoked_at IS NULL ${unrevokedStateSql(filters.state, now)}`
        : Prisma.empty;
  const [row] = await queryPrepared<KeyCounts>(Prisma.sql`
    SELECT count(*) FILTER (WHERE true ${keyMatchSql(filters)} ${state})::int AS matching,
           count(*)::int AS total,
           count(*) FILTER (WHERE k.revoked_at IS NULL)::int AS unrevoked
    FROM api_keys k
    WHERE k.organization_id = ${access.organization.id}::uuid`);
  return row ?? { matching: 0, total: 0, unrevoked: 0 };
}

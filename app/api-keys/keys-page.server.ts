// Everything the keys page shows, read in a fixed handful of SQL statements whatever the size of
// the revoked history: the unrevoked keys (at most 25) and one page of revoked keys, both narrowed
// and sorted by the page's filters (key-filters.ts), and with filters, one count for "n of m keys
// match". Without filters the page sends exactly the statements it sent before filters existed.
// Bad search params are a 400 with a translated message.
import { roleHas } from "~/access/permissions";
import { DomainError } from "~/lib/domain-error";
import { listUnrevokedKeys, type ApiKeyView, type KeyManager } from "./api-keys.server";
import { narrowsKeys, parseKeyFilters } from "./key-filters";
import { countKeys, historyCursorOrder } from "./key-filters-sql.server";
import { cursorOrder, parseRevokedCursor } from "./revoked-cursor";
import { listRevokedKeys, type RevokedKeysPage } from "./revoked-keys.server";

const CONFIRM_INTENTS = ["rotate", "revoke"] as const;

const NO_REVOKED: RevokedKeysPage = { keys: [], nextCursor: null };

/** The page's search params (filters and history cursor), or a 400. The action checks them too,
 * before it changes anything: a form posted to a URL the page would refuse must not issue, rotate
 * or revoke a key and then answer with the refusal. */
export function parseKeysPageParams(searchParams: URLSearchParams) {
  const { filters, queryShortened } = parseKeyFilters(searchParams);
  const cursor = parseRevokedCursor(searchParams);
  // A cursor names a place in one order: after a change of sort it means nothing.
  if (cursor && cursorOrder(cursor) !== historyCursorOrder(filters.sort)) throw new DomainError("BAD_REQUEST", "apiKey.badRevokedCursor");
  return { filters, queryShortened, cursor };
}

export async function loadKeysPage(access: KeyManager, searchParams: URLSearchParams) {
  const { filters, queryShortened, cursor } = parseKeysPageParams(searchParams);
  const now = new Date();
  const narrowed = narrowsKeys(filters);
  // `state=revoked` shows only the history; active or expired only the keys in use.
  const [keys, revoked, counts] = await Promise.all([
    filters.state === "revoked" ? Promise.resolve([]) : listUnrevokedKeys(access, filters, now),
    filters.state === null || filters.state === "revoked" ? listRevokedKeys(access, cursor, filters) : Promise.resolve(NO_REVOKED),
    narrowed ? countKeys(access, filters, now) : Promise.resolve(null),
  ]);
  // The no-JavaScript confirm view (`?confirm=rotate&key=<id>`): only an unrevoked key can be
  // rotated or revoked; any other id (revoked since, unknown, another organization's) says it is gone.
  const confirmIntent = CONFIRM_INTENTS.find((intent) => intent === searchParams.get("confirm"));
  const confirmKey: ApiKeyView | null = keys.find((k) => k.id === searchParams.get("key")) ?? null;
  return {
    keys,
    revoked: { ...revoked, isFirstPage: !cursor },
    filters,
    /** A pasted secret was cut to its prefix: the page says so (and never shows the rest). */
    queryShortened,
    /** "n of m keys match" when filters narrow the lists; null without filters. */
    counts,
    /** Unrevoked keys whatever the filters: the 25-key limit and the issue button go by it. */
    unrevokedCount: counts?.unrevoked ?? keys.length,
    /** The history links lead to the audit log: only for roles that may read it. */
    canViewHistory: roleHas(access.role, "audit:view"),
    confirm: confirmIntent && searchParams.has("key") ? { intent: confirmIntent, key: confirmKey } : null,
  };
}

export type KeysPageData = Awaited<ReturnType<typeof loadKeysPage>>;

// Everything the keys page shows, read in a fixed handful of SQL statements whatever the size of
// the revoked history: the unrevoked keys (at most 25) and one page of revoked keys. Bad search
// params are a 400 with a translated message.
import { roleHas } from "~/access/permissions";
import { listUnrevokedKeys, type ApiKeyView, type KeyManager } from "./api-keys.server";
import { parseRevokedCursor } from "./revoked-cursor";
import { listRevokedKeys } from "./revoked-keys.server";

const CONFIRM_INTENTS = ["rotate", "revoke"] as const;

export async function loadKeysPage(access: KeyManager, searchParams: URLSearchParams) {
  const cursor = parseRevokedCursor(searchParams);
  const [keys, revoked] = await Promise.all([listUnrevokedKeys(access), listRevokedKeys(access, cursor)]);
  // The no-JavaScript confirm view (`?confirm=rotate&key=<id>`): only an unrevoked key can be
  // rotated or revoked; any other id (revoked since, unknown, another organization's) says it is gone.
  const confirmIntent = CONFIRM_INTENTS.find((intent) => intent === searchParams.get("confirm"));
  const confirmKey: ApiKeyView | null = keys.find((k) => k.id === searchParams.get("key")) ?? null;
  return {
    keys,
    revoked: { ...revoked, isFirstPage: !cursor },
    /** The history links lead to the audit log: only for roles that may read it. */
    canViewHistory: roleHas(access.role, "audit:view"),
    confirm: confirmIntent && searchParams.has("key") ? { intent: confirmIntent, key: confirmKey } : null,
  };
}

export type KeysPageData = Awaited<ReturnType<typeof loadKeysPage>>;

// The words every row of the keys page's lists repeats, translated once per render of a list and
// handed to its rows. On the server each useTranslation() call copies the i18n instance
// (react-i18next 17) and each t() call costs a few microseconds; with a few dozen of them per row
// they were most of the cost of the page. Rows call `t` only for text that names the key.
import { useMemo } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { scopeLabelKey } from "./key-page";

export function useKeyListText() {
  const { t } = useTranslation("apiKeys");
  return useMemo(
    () => ({
      t,
      states: { active: t("states.active"), expired: t("states.expired"), revoked: t("states.revoked") },
      scopes: Object.fromEntries(API_KEY_SCOPES.map((scope) => [scope, t(scopeLabelKey(scope))])) as Record<string, string>,
      prefix: t("list.prefix"),
      scopesLabel: t("list.scopes"),
      created: t("list.created"),
      lastUsed: t("list.lastUsed"),
      lastUsedAt: t("lastUsedAt"),
      keyId: t("keyId.label"),
      noExpiry: t("list.noExpiry"),
      neverUsed: t("list.neverUsed"),
      createdByDeletedUser: t("list.createdByDeletedUser"),
      rotate: { button: t("rotate.button"), body: t("rotate.body") },
      revoke: { button: t("revoke.button"), body: t("revoke.body") },
      cancel: t("cancel"),
      history: t("history.link"),
      revokedOn: t("revoked.on"),
      revokedByDeletedUser: t("revoked.byDeletedUser"),
      leak: { badge: t("leak.badge"), advice: t("leak.advice"), revokedAdvice: t("leak.revokedAdvice") },
    }),
    [t],
  );
}

export type KeyListText = ReturnType<typeof useKeyListText>;

// The words every row of the keys page's lists repeats, translated once per render of a list and
// handed to its rows. On the server each useTranslation() call copies the i18n instance
// (react-i18next 17) and each t() call costs a few microseconds; with a few dozen of them per row
// they were most of the cost of the page. Sentences that name a key are translated once too, with a
// marker where the name goes (`named`), and sentences that count scopes once per count: a row then
// joins strings instead of calling `t` (each call, even a remembered one, serialises its options).
import { useMemo } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { scopeLabelKey } from "./key-page";

/** Stands for the key's name in a translated sentence; i18next inserts it as it is (no escaping,
 * app/i18n/i18next.server.ts and entry.client.tsx), and no translation contains it. */
const NAME = "\u0000name\u0000";

/** A translated sentence with NAME in it, as a function of the name. */
function named(sentence: string): (name: string) => string {
  const parts = sentence.split(NAME);
  return (name) => parts.join(name);
}

/** `make(count)` remembered per count: a list has keys with 1 to 10 scopes. */
function perCount<T>(make: (count: number) => T): (count: number) => T {
  const made = new Map<number, T>();
  return (count) => {
    let found = made.get(count);
    if (found === undefined) {
      found = make(count);
      made.set(count, found);
    }
    return found;
  };
}

export function useKeyListText() {
  const { t } = useTranslation("apiKeys");
  return useMemo(
    () => ({
      t,
      /** "n scopes, details" and the summary's accessible name "Details of <name>: n scopes". */
      details: perCount((count) => ({ summary: t("list.details", { count }), of: named(t("list.detailsOf", { name: NAME, count })) })),
      createdBy: named(t("list.createdByName", { name: NAME })),
      copyKeyId: named(t("keyId.copy", { name: NAME })),
      historyOf: named(t("history.linkLabel", { name: NAME })),
      revokedBy: named(t("revoked.by", { name: NAME })),
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

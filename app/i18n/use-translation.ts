// The app's useTranslation: the same call and result as react-i18next's (`const { t, i18n } =
// useTranslation("audit")`), without its per-component cost. react-i18next 17 copies every own
// property of the i18next instance into a new wrapper object the first time each component
// instance calls its hook (a React Compiler aid, react-i18next PR #1884); a page of 50 audit rows
// has a few hundred such components, and in a CPU profile of the server under load that copy alone
// was a sixth of all the time spent. Here a component subscribes to the instance's language and
// gets `getFixedT(language, namespace)`, memoized: it re-renders when the language changes, as
// with react-i18next. As there, a list of namespaces means the first is the default and the others
// are reached with a `ns:` prefix. All namespaces are bundled, so there is nothing to wait for.
// The `t` it gives is typed by our keys (app/i18n/keys.ts): a key the locales lack fails tsc.
//
// Bundled resources also mean that `t(key)` and `t(key, {flat options})` always give the same text
// for a language and namespace, so those answers are remembered. An i18next `t` call copies the
// instance's whole options object each time, and an audit page (50 rows, a 90-bar chart) makes
// several hundred: in the same profile they were the next largest cost after the wrapper.
import type { i18n as I18n, TFunction } from "i18next";
import { useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import { I18nContext, getI18n } from "react-i18next";
import type { NamespaceName, Translate } from "./keys";

/** Remembered answers, shared by every request; emptied when full, as keys and options can come
 * from stored data (an unknown action's identifier, a name). */
const remembered = new Map<string, string>();
const MAX_REMEMBERED = 20_000;

/** The cache key of a call whose answer depends only on its arguments, or null. */
function rememberableCall(args: unknown[]): string | null {
  const [key, options] = args;
  if (typeof key !== "string" || args.length > 2) return null;
  if (args.length === 1 || options === undefined) return key;
  if (typeof options !== "object" || options === null || Array.isArray(options)) return null;
  for (const [name, value] of Object.entries(options)) {
    if (name === "returnObjects" || (value !== null && typeof value === "object") || typeof value === "function") return null;
  }
  return `${key}\u001f${JSON.stringify(options)}`;
}

function remembering(t: TFunction, language: string, namespace: string | undefined): TFunction {
  const prefix = `${language}\u001f${namespace ?? ""}\u001f`;
  const translate = t as unknown as (...args: unknown[]) => unknown;
  const rememberingT = (...args: unknown[]) => {
    const call = rememberableCall(args);
    if (call === null) return translate(...args);
    const cacheKey = prefix + call;
    const known = remembered.get(cacheKey);
    if (known !== undefined) return known;
    const answer = translate(...args);
    if (typeof answer === "string") {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(cacheKey, answer);
    }
    return answer;
  };
  return Object.assign(rememberingT, t) as unknown as TFunction;
}

/** One namespace, or several: the first is the default, the others are reached with a prefix. */
type Namespaces = NamespaceName | readonly [NamespaceName, ...NamespaceName[]];
type DefaultOf<N extends Namespaces> = N extends readonly [infer First extends NamespaceName, ...NamespaceName[]]
  ? First
  : N extends NamespaceName
    ? N
    : never;

export function useTranslation<const N extends Namespaces = "common">(namespaces?: N): { t: Translate<DefaultOf<N>>; i18n: I18n } {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  const subscribe = useCallback(
    (onChange: () => void) => {
      i18n.on("languageChanged", onChange);
      return () => i18n.off("languageChanged", onChange);
    },
    [i18n],
  );
  const language = useSyncExternalStore(
    subscribe,
    () => i18n.language,
    () => i18n.language,
  );
  const namespace = Array.isArray(namespaces) ? namespaces[0] : namespaces;
  const t = useMemo(() => remembering(i18n.getFixedT(language, namespace ?? null), language, namespace), [i18n, language, namespace]);
  return { t: t as unknown as Translate<DefaultOf<N>>, i18n };
}

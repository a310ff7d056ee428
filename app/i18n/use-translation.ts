// The app's useTranslation: the same call and result as react-i18next's (`const { t, i18n } =
// useTranslation("audit")`), without its per-component cost. react-i18next 17 copies every own
// property of the i18next instance into a new wrapper object the first time each component
// instance calls its hook (a React Compiler aid, react-i18next PR #1884); a page of 50 audit rows
// has a few hundred such components, and in a CPU profile of the server under load that copy alone
// was a sixth of all the time spent. Here a component subscribes to the instance's language and
// gets `getFixedT(language, namespace)`, memoized: it re-renders when the language changes, as
// with react-i18next. As there, a list of namespaces means the first is the default and the others
// are reached with a `ns:` prefix. All namespaces are bundled, so there is nothing to wait for.
import type { i18n as I18n, Namespace, TFunction } from "i18next";
import { useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import { I18nContext, getI18n } from "react-i18next";

export function useTranslation<const N extends Namespace>(namespaces?: N): { t: TFunction<N>; i18n: I18n } {
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
  const t = useMemo(() => i18n.getFixedT(language, namespace ?? null), [i18n, language, namespace]);
  return { t: t as TFunction<N>, i18n };
}

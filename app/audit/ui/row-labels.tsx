// How the audit view names things in its rows and drawer: actions, target types, actors and
// targets. Plain functions where a page repeats them (50 rows, each a plain element, not a
// component), so that the page stays cheap to render on the server.
import type { Translate } from "~/i18n/keys";
import { useMemo } from "react";
import { Badge } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { actionLabelKey } from "~/audit/catalog";
import type { ResolvedName } from "~/audit/query.server";

/** Answers of `translate` per argument, worked out once each: a page repeats a few actions and
 * target types across its rows, and each translation with a fallback is two i18next calls. */
export function onceEach(translate: (value: string) => string): (value: string) => string {
  const known = new Map<string, string>();
  return (value) => {
    let answer = known.get(value);
    if (answer === undefined) {
      answer = translate(value);
      known.set(value, answer);
    }
    return answer;
  };
}

/** A target type as people read it (an unknown one shows its identifier): rows and drawer. */
export function targetKindLabel(t: Translate<"audit">, type: string): string {
  return t(`targetTypes.${type}`, { defaultValue: type });
}

/** An action identifier as people read it (an unknown one shows its identifier). */
export function useActionLabel() {
  const { t } = useTranslation("audit");
  return useMemo(() => onceEach((action) => t(actionLabelKey(action), { defaultValue: t("unknownAction", { action }) })), [t]);
}

/** A name as the view shows it: a plain function, not a component (a page shows 100 of them). */
export function nameView(t: Translate<"audit">, value: ResolvedName, id: string, kind?: string) {
  // As few elements and attributes as the name needs (the classes are in app/app.css).
  if (kind === "system") return <span className="audit-name">{t("actorKinds.system")}</span>;
  if (value.name === null) {
    return (
      <>
        <code className="audit-deleted">{id}</code> <Badge tone="slate">{t("page.deleted")}</Badge>
      </>
    );
  }
  if (!value.detail) return <span className="audit-name">{value.name}</span>;
  return (
    <>
      <span className="audit-name">{value.name}</span>
      <span className="audit-name-detail">{value.detail}</span>
    </>
  );
}

// One detail value in the drawer, by its kind (app/audit/ui/detail-presentation.ts): a change as
// "from → to", lists and named values as badges, times in the page's language.
import { Badge } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import { useTranslation } from "~/i18n/use-translation";
import type { ResolvedName } from "~/audit/query.server";
import { detailValueLabel, type DetailValue } from "~/audit/ui/detail-presentation";
import { nameView } from "~/audit/ui/row-labels";

/** `person`: the field holds a person's id, resolved by the read (app/audit/query.server.ts): shown
 * like the actor, by today's name and e-mail address, or the id marked deleted. */
export function DetailValueView({ field, value, person }: { field: string; value: DetailValue; person?: ResolvedName }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const label = (name: string, raw: string) => detailValueLabel(t, name, raw);
  if (person && value.kind === "text") return nameView(t, person, value.value);
  switch (value.kind) {
    case "named":
      if (value.value.length === 0) return <span>{t("values.none")}</span>;
      return (
        <span className="flex flex-wrap gap-1">
          {value.value.map((named) => (
            <Badge key={named.field}>{`${t(named.labelKey, { defaultValue: named.field })}: ${label(named.field, named.value)}`}</Badge>
          ))}
        </span>
      );
    case "list":
      return (
        <span className="flex flex-wrap gap-1">
          {value.value.map((v) => (
            <Badge key={v}>{label(field, v)}</Badge>
          ))}
        </span>
      );
    case "change":
      return (
        // Previous value first; the arrow and the strike-through are visual, so screen readers hear words.
        <span className="[overflow-wrap:anywhere]">
          <span className="sr-only">{t("change.previous")} </span>
          <span className="text-slate-500 line-through">{label(field, value.from)}</span> <span aria-hidden="true">→</span>{" "}
          <span className="sr-only">{t("change.now")} </span>
          <span className="font-medium">{label(field, value.to)}</span>
        </span>
      );
    case "datetime":
      return <span>{formats.dateTime(value.value)} UTC</span>;
    case "json":
      return <code className="block whitespace-pre-wrap break-all text-xs">{value.value}</code>;
    default:
      return <span className="[overflow-wrap:anywhere]">{label(field, value.value)}</span>;
  }
}

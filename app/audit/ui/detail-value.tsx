// One detail value in the drawer, by its kind (app/audit/ui/detail-presentation.ts): a change as
// "from → to", lists and named values as badges, times in the page's language.
import { Badge } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import { useTranslation } from "~/i18n/use-translation";
import { detailValueLabel, type DetailValue } from "~/audit/ui/detail-presentation";

export function DetailValueView({ field, value }: { field: string; value: DetailValue }) {
  const { t } = useTranslation("audit");
  const formats = useFormats();
  const label = (name: string, raw: string) => detailValueLabel(t, name, raw);
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
        <span className="[overflow-wrap:anywhere]">
          <span className="text-slate-500 line-through">{label(field, value.from)}</span> →{" "}
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

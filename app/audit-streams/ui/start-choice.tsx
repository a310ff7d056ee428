// "Start from now" (the default) or "replay from a date": on the create form and in the restart
// confirmation. The day field is always there, so the choice works without JavaScript.
import { useTranslation } from "~/i18n/use-translation";
import { Field } from "~/components/ui";

export function StartChoice({
  idPrefix,
  start,
  startDate,
  dateErrors,
}: {
  idPrefix: string;
  start: string | undefined;
  startDate: string | undefined;
  dateErrors: string[] | undefined;
}) {
  const { t } = useTranslation("auditStreams");
  const choice = start === "date" ? "date" : "now";
  return (
    <fieldset className="space-y-3">
      <legend className="block text-sm font-medium text-slate-800">{t("start.legend")}</legend>
      {(["now", "date"] as const).map((value) => (
        // The hint is the radio's description, not part of its name ("From now", not the sentence).
        <div key={value} className="flex items-start gap-3 text-sm">
          <input
            type="radio"
            name="start"
            value={value}
            id={`${idPrefix}-start-choice-${value}`}
            defaultChecked={choice === value}
            className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600"
            aria-describedby={`${idPrefix}-start-${value}-hint`}
          />
          <div>
            <label htmlFor={`${idPrefix}-start-choice-${value}`} className="block font-medium text-slate-900">
              {t(value === "now" ? "start.now" : "start.date")}
            </label>
            <p id={`${idPrefix}-start-${value}-hint`} className="text-slate-500">
              {t(value === "now" ? "start.nowHint" : "start.dateHint")}
            </p>
          </div>
        </div>
      ))}
      <div className="max-w-xs pl-7">
        <Field
          label={t("start.dateLabel")}
          name="startDate"
          id={`${idPrefix}-start-date`}
          type="date"
          defaultValue={startDate}
          errors={dateErrors}
        />
      </div>
    </fieldset>
  );
}

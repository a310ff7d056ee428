// Adding a stream: a name, the kind (radio cards), the chosen kind's fields, and where delivery
// starts. Without JavaScript every kind's group of fields is shown and the chosen kind's is used;
// once the page is interactive only the chosen kind's group shows. Validated in the browser with
// the schema the action uses.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useState } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { FormErrors } from "~/components/form-errors";
import { validateOnSubmit } from "~/components/form-validation";
import { Alert, Button, Card, Field, cx } from "~/components/ui";
import { useHydrated } from "~/components/use-hydrated";
import { STREAM_KINDS, type StreamKind } from "~/audit-streams/destinations";
import { createStreamFormSchema } from "~/audit-streams/stream-forms";
import { DestinationFields } from "./destination-fields";
import { StartChoice } from "./start-choice";
import { CREATE_STREAM_NAME_ID, STREAMS_PAGE_PATH } from "./stream-page";

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};

export function CreateStreamCard({
  lastResult,
  limit,
  limitReached,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  limit: number;
  limitReached: boolean;
}) {
  const { t } = useTranslation("auditStreams");
  return (
    <Card id="create-stream" className="scroll-mt-24" title={t("create.heading")} description={t("create.description")}>
      {limitReached ? <Alert tone="info">{t("create.limitReached", { limit })}</Alert> : <CreateStreamForm lastResult={lastResult} />}
    </Card>
  );
}

function CreateStreamForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation("auditStreams");
  const hydrated = useHydrated();
  const [form, fields] = useForm({ id: "create-stream", lastResult, ...validateOnSubmit(createStreamFormSchema) });
  const initial = asRecord(form.initialValue);
  const initialKind = STREAM_KINDS.find((kind) => kind === initial.kind) ?? "webhook";
  const [kind, setKind] = useState<StreamKind>(initialKind);
  const errors = form.allErrors;
  return (
    <Form method="post" action={STREAMS_PAGE_PATH} className="max-w-2xl space-y-6" {...getFormProps(form)}>
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="create" />
      <div className="max-w-md">
        <Field
          label={t("create.name")}
          hint={t("create.nameHint")}
          name="name"
          id={CREATE_STREAM_NAME_ID}
          errors={fields.name.errors}
          defaultValue={typeof initial.name === "string" ? initial.name : undefined}
          maxLength={100}
          autoComplete="off"
        />
      </div>
      <fieldset>
        <legend className="block text-sm font-medium text-slate-800">{t("create.kind")}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {STREAM_KINDS.map((option) => (
            <label
              key={option}
              className="flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2.5 text-sm ring-1 ring-inset ring-slate-200 transition-colors hover:bg-slate-50 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-300 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
            >
              <input
                type="radio"
                name="kind"
                value={option}
                defaultChecked={option === initialKind}
                onChange={() => setKind(option)}
                className="h-4 w-4 shrink-0 accent-brand-600 focus:outline-none"
              />
              <span className="font-medium text-slate-900">{t(`kinds.${option}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      {STREAM_KINDS.map((group) => (
        // Without JavaScript all groups show, each named; with it only the chosen one.
        <fieldset key={group} hidden={hydrated && group !== kind} className={cx("space-y-3")} data-kind-fields={group}>
          <legend className="text-sm font-semibold text-slate-900">{t("create.fieldsOf", { kind: t(`kinds.${group}`) })}</legend>
          <DestinationFields kind={group} group={group} idPrefix={`create-${group}`} values={asRecord(initial[group])} errors={errors} />
        </fieldset>
      ))}
      <StartChoice
        idPrefix="create"
        start={typeof initial.start === "string" ? initial.start : undefined}
        startDate={typeof initial.startDate === "string" ? initial.startDate : undefined}
        dateErrors={errors.startDate}
      />
      <div className="border-t border-slate-100 pt-5">
        <Button type="submit" className="w-full sm:w-auto">
          {t("create.submit")}
        </Button>
      </div>
    </Form>
  );
}

// Editing a stream: its name and its kind's fields (the kind itself stays). Credentials start empty
// and say a value is stored; left empty, the stored one is kept. The version the page showed goes
// with the form, so a change someone else saved meanwhile is refused with a clear message instead
// of being overwritten.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useMemo } from "react";
import { Form } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { FormErrors } from "~/components/form-errors";
import { validateOnSubmit } from "~/components/form-validation";
import { Button, Card, Field } from "~/components/ui";
import type { StreamView } from "~/audit-streams/streams.server";
import { editStreamFormSchema } from "~/audit-streams/stream-forms";
import { DestinationFields } from "./destination-fields";
import { streamPagePath } from "./stream-page";

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};

export function EditStreamForm({ stream, lastResult }: { stream: StreamView; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation("auditStreams");
  const schema = useMemo(() => editStreamFormSchema(stream.kind), [stream.kind]);
  // The page renders this keyed by the stream's version: a new version (saved here or elsewhere)
  // starts the form again from what is stored.
  const [form, fields] = useForm({ id: "edit-stream", lastResult, ...validateOnSubmit(schema) });
  const submitted = asRecord(form.initialValue);
  const values = lastResult && Object.keys(submitted).length > 0 ? asRecord(submitted.destination) : asRecord(stream.settings);
  const name = lastResult && typeof submitted.name === "string" ? submitted.name : stream.name;
  return (
    <Card title={t("edit.heading")} description={t("edit.description")}>
      <Form method="post" action={streamPagePath(stream.id)} className="max-w-2xl space-y-6" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="intent" value="update" />
        <input type="hidden" name="version" value={stream.version} />
        <div className="max-w-md">
          <Field
            label={t("create.name")}
            name="name"
            id="edit-stream-name"
            errors={fields.name.errors}
            defaultValue={name}
            maxLength={100}
            autoComplete="off"
          />
        </div>
        <DestinationFields
          kind={stream.kind}
          group="destination"
          idPrefix="edit"
          values={values}
          errors={form.allErrors}
          storedCredentials={stream.credentialsSet}
        />
        <div className="border-t border-slate-100 pt-5">
          <Button type="submit" className="w-full sm:w-auto">
            {t("edit.submit")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

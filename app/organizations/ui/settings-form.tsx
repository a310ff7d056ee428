// The organization's general settings form (name, slug, logo URL, two-factor requirement).
// Read-only for members without organization:update; the route's action saves it.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { FormErrors } from "~/components/form-errors";
import { Alert, Button, Card, Field } from "~/components/ui";
import { organizationSettingsSchema } from "~/organizations/schemas";

export interface SettingsFormValues {
  name: string;
  slug: string;
  logoUrl: string | null;
  requireTwoFactor: boolean;
}

export function SettingsForm({
  settings,
  canEdit,
  lastResult,
  saved,
}: {
  settings: SettingsFormValues;
  canEdit: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
  saved: boolean;
}) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const [form, fields] = useForm({
    lastResult,
    defaultValue: {
      name: settings.name,
      slug: settings.slug,
      logoUrl: settings.logoUrl ?? "",
      requireTwoFactor: settings.requireTwoFactor ? "on" : undefined,
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: organizationSettingsSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <Card title={t("settings.general")}>
      {!canEdit ? (
        <div className="mb-4">
          <Alert tone="info">{t("settings.readOnly")}</Alert>
        </div>
      ) : null}
      {saved ? (
        <div className="mb-4">
          <Alert tone="success">{t("settings.saved")}</Alert>
        </div>
      ) : null}
      <Form method="post" className="max-w-xl space-y-5" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <fieldset disabled={!canEdit} className="space-y-5">
          <Field
            label={t("settings.name")}
            errors={fields.name.errors}
            errorParams={{ max: 80 }}
            {...getInputProps(fields.name, { type: "text" })}
          />
          <Field label={t("settings.slug")} errors={fields.slug.errors} {...getInputProps(fields.slug, { type: "text" })} />
          <Field
            label={t("settings.logoUrl")}
            hint={t("settings.logoHint")}
            errors={fields.logoUrl.errors}
            errorParams={{ max: 2048 }}
            {...getInputProps(fields.logoUrl, { type: "url" })}
          />
          <div className="flex items-start gap-3 rounded-lg bg-slate-50 p-4 ring-1 ring-inset ring-slate-200">
            <input
              {...getInputProps(fields.requireTwoFactor, { type: "checkbox" })}
              className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            />
            <div>
              <label htmlFor={fields.requireTwoFactor.id} className="text-sm font-medium text-slate-800">
                {t("settings.requireTwoFactor")}
              </label>
              <p className="text-sm text-slate-500">{t("settings.requireTwoFactorHint")}</p>
            </div>
          </div>
          {canEdit ? <Button type="submit">{tc("actions.save")}</Button> : null}
        </fieldset>
      </Form>
    </Card>
  );
}

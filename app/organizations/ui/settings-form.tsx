// The organization's general settings form: name, slug, logo (upload or remove) and the two-factor
// requirement. Read-only for members without organization:update; the route's action saves it.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { CopyButton } from "~/components/copy-button";
import { useTranslation } from "~/i18n/use-translation";
import { Form, href, Link } from "react-router";
import { FormErrors } from "~/components/form-errors";
import { Alert, Button, Card, Field } from "~/components/ui";
import { LOGO_MAX_BYTES, LOGO_TYPES, logoPath } from "~/organizations/logo-path";
import { organizationSettingsSchema } from "~/organizations/schemas";

export interface SettingsFormValues {
  id: string;
  name: string;
  slug: string;
  logoId: string | null;
  requireTwoFactor: boolean;
}

export function SettingsForm({
  settings,
  canEdit,
  ownTwoFactor,
  lastResult,
  saved,
}: {
  settings: SettingsFormValues;
  canEdit: boolean;
  /** Whether the signed-in user has two-factor authentication on. */
  ownTwoFactor: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
  saved: boolean;
}) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const [form, fields] = useForm({
    id: "settings",
    lastResult,
    defaultValue: { name: settings.name, slug: settings.slug, requireTwoFactor: settings.requireTwoFactor ? "on" : undefined },
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
      <div className="mb-5 max-w-xl text-sm">
        <p className="font-medium text-slate-800">{t("organizationId.label")}</p>
        <p className="mt-1 flex flex-wrap items-center gap-x-2">
          <code className="font-mono text-xs break-all text-slate-700" data-testid="organization-id">
            {settings.id}
          </code>
          <CopyButton value={settings.id} label={t("organizationId.copy")} />
        </p>
        <p className="mt-1 text-slate-500">{t("organizationId.hint")}</p>
      </div>
      <Form method="post" encType="multipart/form-data" className="max-w-xl space-y-5" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="settings" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <fieldset disabled={!canEdit} className="space-y-5">
          <Field
            label={t("settings.name")}
            errors={fields.name.errors}
            errorParams={{ max: 80 }}
            {...getInputProps(fields.name, { type: "text" })}
          />
          <Field label={t("settings.slug")} errors={fields.slug.errors} {...getInputProps(fields.slug, { type: "text" })} />
          <div className="space-y-2">
            <p className="text-sm font-medium text-slate-800">{t("settings.logo")}</p>
            <div className="flex items-center gap-4">
              {settings.logoId ? (
                <img
                  src={logoPath(settings.id, settings.logoId)}
                  alt={t("settings.logoAlt", { name: settings.name })}
                  className="h-14 w-14 shrink-0 rounded-md bg-[#fff] object-contain ring-1 ring-slate-200"
                />
              ) : (
                <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-md bg-slate-100 text-xs text-slate-600">
                  {t("settings.noLogo")}
                </span>
              )}
              <Field
                label={t("settings.logoUpload")}
                hint={t("settings.logoHint", { max: LOGO_MAX_BYTES / 1024 })}
                errors={fields.logo.errors}
                name={fields.logo.name}
                id={fields.logo.id}
                type="file"
                accept={LOGO_TYPES.join(",")}
              />
            </div>
            {settings.logoId ? (
              <label className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  {...getInputProps(fields.removeLogo, { type: "checkbox" })}
                  className="h-4 w-4 rounded border-slate-300 accent-brand-600"
                />
                {t("settings.removeLogo")}
              </label>
            ) : null}
          </div>
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
              {/* Turning it on needs a second factor of one's own (else the caller locks themselves out): say how. */}
              {canEdit && !ownTwoFactor && !settings.requireTwoFactor ? (
                <p className="mt-1 text-sm text-slate-700">
                  {t("settings.ownTwoFactorFirst")}{" "}
                  <Link to={href("/dashboard/account/security")} className="font-semibold text-brand-600 hover:text-brand-700">
                    {t("settings.enableTwoFactorLink")}
                  </Link>
                </p>
              ) : null}
            </div>
          </div>
          {canEdit ? <Button type="submit">{tc("actions.save")}</Button> : null}
        </fieldset>
      </Form>
    </Card>
  );
}

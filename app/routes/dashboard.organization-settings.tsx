import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/dashboard.organization-settings";
import { ErrorPanel } from "~/components/error-page";
import { requireActiveOrgPermission } from "~/auth/guards.server";
import { FormErrors } from "~/components/form-errors";
import { Alert, Badge, Button, Card, Field, PageHeader } from "~/components/ui";
import { getInstance } from "~/i18n/i18next.server";
import { invalidForm, parseForm, withFormErrors } from "~/lib/forms.server";
import { getOrganizationSettings, listMembers, updateOrganizationSettings } from "~/organizations/organizations.server";
import { roleHas } from "~/organizations/permissions";
import { organizationSettingsSchema } from "~/organizations/schemas";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrgPermission(args);
  const [settings, members] = await Promise.all([getOrganizationSettings(access.organization.id), listMembers(access.organization.id)]);
  return {
    title: getInstance(args.context).t("organizations:settings.title"),
    settings,
    canEdit: roleHas(access.role, "organization:update"),
    members: members.map((m) => ({
      id: m.user.id,
      name: m.user.name,
      email: m.user.email,
      role: m.role,
      since: m.createdAt.toISOString(),
      twoFactor: m.user.twoFactorEnabledAt !== null,
    })),
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrgPermission(args, "organization:update");
  const { submission } = await parseForm(args.request, organizationSettingsSchema);
  if (submission.status !== "success") return invalidForm(submission);
  const result = await withFormErrors(args.context, submission, () => updateOrganizationSettings(access, access.organization.id, submission.value));
  if (!result.ok) return result.response;
  return { ...submission.reply(), saved: true };
}

export default function OrganizationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const { settings } = loaderData;
  const [form, fields] = useForm({
    lastResult: actionData,
    defaultValue: { name: settings.name, slug: settings.slug, logoUrl: settings.logoUrl ?? "", requireTwoFactor: settings.requireTwoFactor ? "on" : undefined },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: organizationSettingsSchema }),
    shouldValidate: "onBlur",
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
  return (
    <div className="space-y-6">
      <PageHeader title={t("settings.title")} description={t("settings.description", { name: settings.name })} />
      <Card title={t("settings.general")}>
        {!loaderData.canEdit ? (
          <div className="mb-4">
            <Alert tone="info">{t("settings.readOnly")}</Alert>
          </div>
        ) : null}
        {actionData && "saved" in actionData && actionData.saved ? (
          <div className="mb-4">
            <Alert tone="success">{t("settings.saved")}</Alert>
          </div>
        ) : null}
        <Form method="post" className="max-w-xl space-y-5" {...getFormProps(form)}>
          <FormErrors errors={form.errors} id={form.errorId} />
          <fieldset disabled={!loaderData.canEdit} className="space-y-5">
            <Field label={t("settings.name")} errors={fields.name.errors} errorParams={{ max: 80 }} {...getInputProps(fields.name, { type: "text" })} />
            <Field label={t("settings.slug")} errors={fields.slug.errors} {...getInputProps(fields.slug, { type: "text" })} />
            <Field label={t("settings.logoUrl")} hint={t("settings.logoHint")} errors={fields.logoUrl.errors} errorParams={{ max: 2048 }} {...getInputProps(fields.logoUrl, { type: "url" })} />
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
            {loaderData.canEdit ? <Button type="submit">{tc("actions.save")}</Button> : null}
          </fieldset>
        </Form>
      </Card>
      <Card title={t("settings.members")} description={t("settings.memberCount", { count: loaderData.members.length })}>
        <div className="-mx-5 -my-5 overflow-x-auto">
          <table className="min-w-full text-sm">
            <thead className="bg-slate-50">
              <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <th scope="col" className="px-5 py-2.5">{t("settings.memberName")}</th>
                <th scope="col" className="px-3 py-2.5">{t("settings.memberRole")}</th>
                <th scope="col" className="hidden px-3 py-2.5 sm:table-cell">{t("settings.twoFactor")}</th>
                <th scope="col" className="hidden px-5 py-2.5 sm:table-cell">{t("settings.memberSince")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {loaderData.members.map((member) => (
                <tr key={member.id}>
                  <td className="px-5 py-3">
                    <p className="font-medium text-slate-900">{member.name}</p>
                    <p className="break-all text-slate-500">{member.email}</p>
                  </td>
                  <td className="px-3 py-3">
                    <div className="flex flex-col items-start gap-1">
                      <Badge tone={member.role === "member" ? "slate" : "brand"}>{tc(`roles.${member.role}`)}</Badge>
                      <span className="sm:hidden">
                        <Badge tone={member.twoFactor ? "green" : "amber"}>
                          {t("settings.twoFactor")}: {member.twoFactor ? t("settings.twoFactorEnabled") : t("settings.twoFactorDisabled")}
                        </Badge>
                      </span>
                    </div>
                  </td>
                  <td className="hidden whitespace-nowrap px-3 py-3 sm:table-cell">
                    <Badge tone={member.twoFactor ? "green" : "amber"}>{member.twoFactor ? t("settings.twoFactorEnabled") : t("settings.twoFactorDisabled")}</Badge>
                  </td>
                  <td className="hidden whitespace-nowrap px-5 py-3 text-slate-600 sm:table-cell">{dateFormat.format(new Date(member.since))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

// Opening support access: before a platform admin reads an organization's audit log in a session,
// they say why (and optionally which ticket). The answer is kept with the session's grant and in
// the support records; the organization's own audit log never shows it. Works without JavaScript.
import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { Form, href, Link, redirect } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/admin.organizations.$organizationId.access";
import { ErrorPanel } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { Button, Card, Field, PageHeader, TextareaField } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { requireSupportTarget } from "~/web/guards.server";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { beginSupportAccess, lastSupportReason } from "~/support/support.server";
import { beginSupportAccessSchema } from "~/support/schemas";
import { validateOnSubmit } from "~/components/form-validation";
import { BackToOrganization } from "~/support/ui/back-to-organization";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

/** Where to go once access is open: a page of this organization's support view, else its log. */
function returnPath(request: Request, organizationId: string): string {
  const home = href("/admin/organizations/:organizationId/audit-log", { organizationId });
  const target = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), home);
  return target.startsWith(`${home}?`) || target === home ? target : home;
}

export async function loader(args: Route.LoaderArgs) {
  const target = await requireSupportTarget(args, args.params.organizationId);
  const previous = target.grant ?? (await lastSupportReason(target));
  return {
    title: `${translatorFor(args.context)("admin:access.title")} · ${target.organization.name}`,
    organization: { id: target.organization.id, name: target.organization.name },
    previous: previous ? { reason: previous.reason, ticket: previous.ticket } : null,
  };
}

export async function action(args: Route.ActionArgs) {
  const target = await requireSupportTarget(args, args.params.organizationId);
  const { submission } = await parseForm(args, beginSupportAccessSchema);
  if (submission.status !== "success") return invalidForm(submission);
  const result = await withFormErrors(args.context, submission, () => beginSupportAccess(target, submission.value));
  if (!result.ok) return result.response;
  throw redirect(returnPath(args.request, target.organization.id));
}

export default function SupportAccessPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { organization, previous } = loaderData;
  const [form, fields] = useForm({
    lastResult: actionData,
    defaultValue: previous ? { reason: previous.reason, ticket: previous.ticket ?? "" } : undefined,
    ...validateOnSubmit(beginSupportAccessSchema),
  });
  return (
    <div className="max-w-2xl space-y-6">
      <BackToOrganization organization={organization} />
      <PageHeader title={t("access.title")} description={t("access.intro", { organization: organization.name })} />
      <Card>
        <Form method="post" className="space-y-5" {...getFormProps(form)}>
          <FormErrors errors={form.errors} id={form.errorId} />
          {previous ? <p className="text-sm text-slate-600">{t("access.lastReason")}</p> : null}
          <TextareaField
            label={t("access.reason")}
            hint={t("access.reasonHint")}
            errors={fields.reason.errors}
            errorParams={{ min: 10, max: 500 }}
            rows={3}
            required
            autoFocus
            {...getTextareaProps(fields.reason)}
          />
          <Field
            label={t("access.ticket")}
            hint={t("access.ticketHint")}
            errors={fields.ticket.errors}
            errorParams={{ max: 100 }}
            {...getInputProps(fields.ticket, { type: "text" })}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit">{t("access.submit")}</Button>
            <Link
              to={href("/admin/organizations/:organizationId", { organizationId: organization.id })}
              className="inline-flex items-center px-2 text-sm font-medium text-slate-600 hover:text-slate-900"
            >
              {t("access.cancel")}
            </Link>
          </div>
        </Form>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

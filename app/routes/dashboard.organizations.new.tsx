// Create an organization: name and optional slug; the creator becomes its owner and it becomes
// the active organization. Rules in app/organizations/organizations.server.ts. An account whose
// address is not verified yet is told so, with a way to have the link sent again.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n/use-translation";
import { Form, href, redirect } from "react-router";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/dashboard.organizations.new";
import { ErrorPanel } from "~/components/error-page";
import { requireUser } from "~/web/guards.server";
import { FormErrors } from "~/components/form-errors";
import { Button, Card, Field, PageHeader } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { createOrganization } from "~/organizations/organizations.server";
import { requestVerificationMail } from "~/accounts/email-verification.server";
import { VerifyAddressNotice } from "~/accounts/ui/verify-address-notice";
import { mailDeliveryFor } from "~/web/mail-delivery.server";
import { organizationInputSchema } from "~/organizations/schemas";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  return {
    title: translatorFor(args.context)("organizations:create.title"),
    unverifiedEmail: auth.user.emailVerified ? null : auth.user.email,
  };
}

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  const { formData, submission } = await parseForm(args, organizationInputSchema);
  if (formData.get("intent") === "resend") {
    const resent = await withFormErrors(args.context, submission, () => requestVerificationMail(auth, mailDeliveryFor(args)));
    if (!resent.ok) return resent.response;
    return { resentTo: auth.user.email };
  }
  if (submission.status !== "success") return invalidForm(submission);
  const result = await withFormErrors(args.context, submission, () => createOrganization(auth, submission.value));
  if (!result.ok) return result.response;
  return redirect(href("/dashboard"));
}

export default function NewOrganization({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("organizations");
  const resentTo = actionData && "resentTo" in actionData ? actionData.resentTo : null;
  const [form, fields] = useForm({
    lastResult: actionData && !("resentTo" in actionData) ? actionData : undefined,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: organizationInputSchema }),
    shouldValidate: "onBlur",
  });
  return (
    <div className="max-w-xl">
      <PageHeader title={t("create.heading")} description={t("create.intro")} />
      {loaderData.unverifiedEmail ? (
        <VerifyAddressNotice email={loaderData.unverifiedEmail} resent={resentTo !== null} errors={form.errors} />
      ) : (
        <Card>
          <Form method="post" className="space-y-5" {...getFormProps(form)}>
            <FormErrors errors={form.errors} id={form.errorId} />
            <Field
              label={t("create.name")}
              errors={fields.name.errors}
              errorParams={{ max: 80 }}
              {...getInputProps(fields.name, { type: "text" })}
            />
            <Field
              label={t("create.slug")}
              hint={t("create.slugHint")}
              errors={fields.slug.errors}
              {...getInputProps(fields.slug, { type: "text" })}
            />
            <Button type="submit">{t("create.submit")}</Button>
          </Form>
        </Card>
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

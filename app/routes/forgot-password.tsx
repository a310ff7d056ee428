// "Forgot password": asks for a reset link by e-mail. The answer is the same whether or not an
// account has the address (app/accounts/password-reset.server.ts).
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { requestPasswordReset, RESET_LINK_LIFETIME } from "~/accounts/password-reset.server";
import { EMAIL_MAX_LENGTH, forgotPasswordSchema } from "~/auth/schemas";
import { AuthLayout, BackToSignIn } from "~/components/auth-layout";
import { ErrorPage } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { titleMeta } from "~/components/page-title";
import { Alert, Button, Field } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { clientAddressContext } from "~/web/context.server";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { mailDeliveryFor } from "~/web/mail-delivery.server";
import { validateOnSubmit } from "~/components/form-validation";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export function loader(args: Route.LoaderArgs) {
  return { title: translatorFor(args.context)("auth:forgot.title") };
}

export async function action(args: Route.ActionArgs) {
  const { submission } = await parseForm(args, forgotPasswordSchema);
  if (submission.status !== "success") return invalidForm(submission);
  const { email } = submission.value;
  const result = await withFormErrors(args.context, submission, () =>
    requestPasswordReset(email, args.context.get(clientAddressContext), mailDeliveryFor(args)),
  );
  if (!result.ok) return result.response;
  return { sentTo: email, minutes: RESET_LINK_LIFETIME / 60_000 };
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state !== "idle";
  const sent = actionData && "sentTo" in actionData ? actionData : null;
  const [form, fields] = useForm({
    lastResult: actionData && !("sentTo" in actionData) ? actionData : undefined,
    ...validateOnSubmit(forgotPasswordSchema),
  });
  return (
    <AuthLayout heading={t("forgot.heading")} footer={<BackToSignIn />}>
      {sent ? (
        <div className="space-y-4">
          <Alert tone="success">{t("forgot.sent", { email: sent.sentTo, minutes: sent.minutes })}</Alert>
          <p className="text-sm text-slate-600">{t("forgot.sentHint")}</p>
        </div>
      ) : (
        <Form method="post" className="space-y-5" {...getFormProps(form)}>
          <p className="text-sm text-slate-600">{t("forgot.intro")}</p>
          <FormErrors errors={form.errors} id={form.errorId} />
          <Field
            label={t("login.email")}
            autoComplete="email"
            errors={fields.email.errors}
            errorParams={{ max: EMAIL_MAX_LENGTH }}
            {...getInputProps(fields.email, { type: "email" })}
          />
          <Button type="submit" className="w-full" disabled={busy}>
            {t("forgot.submit")}
          </Button>
        </Form>
      )}
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

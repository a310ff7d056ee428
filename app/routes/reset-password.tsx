// The page a reset mail links to: a new password, typed twice. A link that no longer works (used,
// replaced by a newer mail, expired, or its account deleted) says so and offers a new one.
import { getFormProps, useForm } from "@conform-to/react";
import { Form, href, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { resetLinkWorks, resetPassword } from "~/accounts/password-reset.server";
import { NewPasswordFields } from "~/accounts/ui/account-settings";
import { resetPasswordFormSchema } from "~/auth/schemas";
import { AuthLayout, BackToSignIn } from "~/components/auth-layout";
import { ErrorPage } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { titleMeta } from "~/components/page-title";
import { Alert, Button, ButtonLink } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { validateOnSubmit } from "~/components/form-validation";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

/** The link carries a secret: keep the page out of every cache. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader(args: Route.LoaderArgs) {
  const token = (new URL(args.request.url).searchParams.get("token") ?? "").slice(0, 200);
  return { title: translatorFor(args.context)("auth:reset.title"), token, works: await resetLinkWorks(token) };
}

const hideFields = ["newPassword", "confirmPassword"];

export async function action(args: Route.ActionArgs) {
  const { submission } = await parseForm(args, resetPasswordFormSchema);
  if (submission.status !== "success") return invalidForm(submission, hideFields);
  const { token, newPassword } = submission.value;
  const result = await withFormErrors(args.context, submission, () => resetPassword(token, newPassword), { hideFields });
  if (!result.ok) return result.response;
  throw redirect(`${href("/login")}?notice=passwordReset`);
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useForm({
    lastResult: actionData,
    ...validateOnSubmit(resetPasswordFormSchema),
  });
  return (
    <AuthLayout heading={t("reset.heading")} footer={<BackToSignIn />}>
      {loaderData.works ? (
        <Form method="post" className="space-y-5" {...getFormProps(form)}>
          <p className="text-sm text-slate-600">{t("reset.intro")}</p>
          <FormErrors errors={form.errors} id={form.errorId} />
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields newPassword={fields.newPassword} confirmPassword={fields.confirmPassword} />
          <Button type="submit" className="w-full" disabled={busy}>
            {t("reset.submit")}
          </Button>
        </Form>
      ) : (
        <div className="space-y-4">
          <Alert tone="warning">{t("reset.linkDoesNotWork")}</Alert>
          <ButtonLink to={href("/forgot-password")} variant="secondary" className="w-full">
            {t("reset.requestNew")}
          </ButtonLink>
        </div>
      )}
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

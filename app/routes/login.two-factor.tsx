// The second sign-in step for accounts with two-factor enabled: a TOTP or a recovery code.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n/use-translation";
import { Form, href, redirect, useSearchParams } from "react-router";
import { titleMeta } from "~/components/page-title";
import { ErrorPage } from "~/components/error-page";
import type { Route } from "./+types/login.two-factor";
import { getAuth } from "~/web/guards.server";
import { secondFactorSchema } from "~/auth/schemas";
import { isFullyAuthenticated } from "~/auth/session.server";
import { verifySecondFactor } from "~/auth/two-factor.server";
import { AuthLayout } from "~/components/auth-layout";
import { FormErrors } from "~/components/form-errors";
import { Button, Field } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

/** Only a signed-in session still waiting for its second factor may be here. */
function requirePendingSecondFactor(context: Route.LoaderArgs["context"]) {
  const auth = getAuth(context);
  if (!auth) throw redirect(href("/login"));
  if (isFullyAuthenticated(auth)) throw redirect(href("/dashboard"));
  return auth;
}

export function loader({ context }: Route.LoaderArgs) {
  const auth = requirePendingSecondFactor(context);
  return { title: translatorFor(context)("auth:twoFactorStep.title"), email: auth.user.email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const auth = requirePendingSecondFactor(context);
  const { submission } = await parseForm({ request, context }, secondFactorSchema);
  if (submission.status !== "success") return invalidForm(submission, ["code"]);
  const result = await withFormErrors(context, submission, () => verifySecondFactor(auth, submission.value.code), { hideFields: ["code"] });
  if (!result.ok) return result.response;
  return redirect(safeRedirectPath(new URL(request.url).searchParams.get("redirectTo")));
}

export default function TwoFactorStep({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    lastResult: actionData,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: secondFactorSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <AuthLayout heading={t("twoFactorStep.heading")}>
      <p className="mb-5 text-sm text-slate-600">{t("twoFactorStep.intro", { email: loaderData.email })}</p>
      <Form method="post" action={`${href("/login/two-factor")}?${searchParams.toString()}`} className="space-y-5" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field
          label={t("twoFactorStep.code")}
          autoComplete="one-time-code"
          inputMode="text"
          autoFocus
          hint={t("twoFactorStep.recoveryHint")}
          errors={fields.code.errors}
          {...getInputProps(fields.code, { type: "text" })}
        />
        <Button type="submit" className="w-full">
          {t("twoFactorStep.submit")}
        </Button>
      </Form>
      <Form method="post" action={href("/logout")} className="mt-4 text-center">
        <button type="submit" className="text-sm font-medium text-slate-600 hover:text-slate-900">
          {t("twoFactorStep.cancel")}
        </button>
      </Form>
    </AuthLayout>
  );
}

/** Outside the app shell: the full error page, in the page's language. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

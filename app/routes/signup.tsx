// Sign up: name, e-mail, password (twice); signs the new account in. Like sign-in, it returns to
// `redirectTo` when that is a path on this origin (an invitation's accept page sends people here
// with the invited address filled in).
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n/use-translation";
import { Form, href, Link, redirect } from "react-router";
import { titleMeta } from "~/components/page-title";
import { ErrorPage } from "~/components/error-page";
import type { Route } from "./+types/signup";
import { signUp } from "~/auth/sign-in.server";
import { sessionCookie } from "~/auth/cookies.server";
import { requireAnonymous } from "~/web/guards.server";
import { safeRedirectPath, signInHref } from "~/lib/safe-redirect";
import { PASSWORD_MIN_LENGTH } from "~/auth/password-rules";
import { signUpSchema } from "~/auth/schemas";
import { AuthLayout } from "~/components/auth-layout";
import { FormErrors } from "~/components/form-errors";
import { Button, Field } from "~/components/ui";
import { clientAddressContext, deviceOf } from "~/web/context.server";
import { translatorFor } from "~/i18n/i18next.server";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export function loader(args: Route.LoaderArgs) {
  requireAnonymous(args);
  const params = new URL(args.request.url).searchParams;
  return {
    title: translatorFor(args.context)("auth:signup.title"),
    passwordMinLength: PASSWORD_MIN_LENGTH,
    email: (params.get("email") ?? "").slice(0, 254),
    redirectTo: safeRedirectPath(params.get("redirectTo"), ""),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { submission } = await parseForm(request, signUpSchema);
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return invalidForm(submission, hideFields);
  const result = await withFormErrors(
    context,
    submission,
    () => signUp(submission.value, context.get(clientAddressContext), deviceOf(request, context)),
    {
      hideFields,
    },
  );
  if (!result.ok) return result.response;
  return redirect(safeRedirectPath(submission.value.redirectTo), { headers: { "Set-Cookie": sessionCookie(result.value.token) } });
}

export default function SignUp({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const [form, fields] = useForm({
    lastResult: actionData,
    defaultValue: { email: loaderData.email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <AuthLayout
      heading={t("signup.heading")}
      footer={
        <>
          {t("signup.haveAccount")}{" "}
          <Link
            to={loaderData.redirectTo ? signInHref(loaderData.redirectTo) : href("/login")}
            className="font-semibold text-brand-600 hover:text-brand-700"
          >
            {t("signup.signInLink")}
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-5" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <Field
          label={t("signup.name")}
          autoComplete="name"
          errors={fields.name.errors}
          errorParams={{ max: 80 }}
          {...getInputProps(fields.name, { type: "text" })}
        />
        <Field
          label={t("signup.email")}
          autoComplete="email"
          errors={fields.email.errors}
          {...getInputProps(fields.email, { type: "email" })}
        />
        <Field
          label={t("signup.password")}
          autoComplete="new-password"
          hint={t("signup.passwordHint", { min: loaderData.passwordMinLength })}
          errors={fields.password.errors}
          {...getInputProps(fields.password, { type: "password" })}
        />
        <Field
          label={t("signup.confirmPassword")}
          autoComplete="new-password"
          errors={fields.confirmPassword.errors}
          {...getInputProps(fields.confirmPassword, { type: "password" })}
        />
        <Button type="submit" className="w-full">
          {t("signup.submit")}
        </Button>
      </Form>
    </AuthLayout>
  );
}

/** Outside the app shell: the full error page, in the page's language. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

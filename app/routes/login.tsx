// Sign in. One message for an unknown e-mail and a wrong password; rate limited per account and
// address (app/auth/sign-in.server.ts). Returns to `redirectTo` when it is a path on this origin.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, href, Link, redirect, useSearchParams } from "react-router";
import { titleMeta } from "~/components/page-title";
import { ErrorPage } from "~/components/error-page";
import type { Route } from "./+types/login";
import { signIn } from "~/auth/sign-in.server";
import { isFullyAuthenticated } from "~/auth/session.server";
import { sessionCookie } from "~/auth/cookies.server";
import { getAuth, requireAnonymous } from "~/web/guards.server";
import { EMAIL_MAX_LENGTH, signInSchema } from "~/auth/schemas";
import { AuthLayout } from "~/components/auth-layout";
import { FormErrors } from "~/components/form-errors";
import { Alert, Button, Field } from "~/components/ui";
import { clientAddressContext, deviceOf } from "~/web/context.server";
import { getLocale, translatorFor } from "~/i18n/i18next.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { validateOnSubmit } from "~/components/form-validation";

/** Where a visitor may have come from: a password just reset, an account just deleted. */
const LOGIN_NOTICES = ["passwordReset", "accountDeleted"] as const;

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export function loader(args: Route.LoaderArgs) {
  requireAnonymous(args);
  // Signed in and sent here to confirm it is them (a page that needs a recent sign-in): say so,
  // and fill in the account's address.
  const auth = getAuth(args.context);
  const notice = new URL(args.request.url).searchParams.get("notice");
  return {
    title: translatorFor(args.context)("auth:login.title"),
    signedInAs: auth && isFullyAuthenticated(auth) ? auth.user.email : null,
    notice: LOGIN_NOTICES.find((known) => known === notice) ?? null,
  };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { submission } = await parseForm({ request, context }, signInSchema);
  if (submission.status !== "success") return invalidForm(submission, ["password"]);
  const previous = getAuth(context)?.session.id;
  const result = await withFormErrors(
    context,
    submission,
    () => signIn(submission.value, context.get(clientAddressContext), previous, deviceOf(request, context), getLocale(context)),
    {
      hideFields: ["password"],
    },
  );
  if (!result.ok) return result.response;
  const target = safeRedirectPath(submission.value.redirectTo);
  const next = result.value.twoFactorPending ? `${href("/login/two-factor")}?redirectTo=${encodeURIComponent(target)}` : target;
  return redirect(next, { headers: { "Set-Cookie": sessionCookie(result.value.token) } });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const [searchParams] = useSearchParams();
  const [form, fields] = useForm({
    lastResult: actionData,
    defaultValue: loaderData.signedInAs ? { email: loaderData.signedInAs } : undefined,
    ...validateOnSubmit(signInSchema),
  });
  return (
    <AuthLayout
      heading={t("login.heading")}
      footer={
        <>
          {t("login.noAccount")}{" "}
          <Link to={href("/signup")} className="font-semibold text-brand-600 hover:text-brand-700">
            {t("login.signUpLink")}
          </Link>
        </>
      }
    >
      <Form method="post" className="space-y-5" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        {loaderData.signedInAs ? <Alert>{t("login.signInAgain")}</Alert> : null}
        {loaderData.notice ? <Alert tone="success">{t(`login.notice.${loaderData.notice}`)}</Alert> : null}
        <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
        <Field
          label={t("login.email")}
          autoComplete="email"
          errors={fields.email.errors}
          errorParams={{ max: EMAIL_MAX_LENGTH }}
          {...getInputProps(fields.email, { type: "email" })}
        />
        <Field
          label={t("login.password")}
          autoComplete="current-password"
          errors={fields.password.errors}
          {...getInputProps(fields.password, { type: "password" })}
        />
        <p className="-mt-2 text-right text-sm">
          <Link to={href("/forgot-password")} className="font-medium text-brand-600 hover:text-brand-700">
            {t("login.forgotPassword")}
          </Link>
        </p>
        <Button type="submit" className="w-full">
          {t("login.submit")}
        </Button>
      </Form>
    </AuthLayout>
  );
}

/** Outside the app shell: the full error page, in the page's language. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

// Sign up: name, e-mail, password (twice), under the installation's SIGNUP_POLICY. A taken and a
// free address get the same "check your inbox" answer; the account is verified by the mailed link
// (app/accounts/sign-up.server.ts). Someone arriving from an invitation (the accept page sends
// `redirectTo` and the invited address) who signs up with that address is signed in at once and
// returns to `redirectTo`.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "~/i18n/use-translation";
import { Form, href, Link, redirect } from "react-router";
import { titleMeta } from "~/components/page-title";
import { ErrorPage } from "~/components/error-page";
import type { Route } from "./+types/signup";
import { signUp, signUpPageState } from "~/accounts/sign-up.server";
import { VERIFICATION_LINK_LIFETIME } from "~/accounts/email-verification.server";
import { sessionCookie } from "~/auth/cookies.server";
import { requireAnonymous } from "~/web/guards.server";
import { safeRedirectPath, signInHref } from "~/lib/safe-redirect";
import { PASSWORD_MIN_LENGTH } from "~/auth/password-rules";
import { EMAIL_MAX_LENGTH, signUpSchema } from "~/auth/schemas";
import { AuthLayout } from "~/components/auth-layout";
import { FormErrors } from "~/components/form-errors";
import { Alert, Button, Field } from "~/components/ui";
import { clientAddressContext, deviceOf } from "~/web/context.server";
import { translatorFor } from "~/i18n/i18next.server";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { mailDeliveryFor } from "~/web/mail-delivery.server";

// No `meta`: the title is rendered with the page (below), because after sending it must read
// "Check your inbox" like the heading, and a route's meta never sees the action's answer.

/** A refusal's Retry-After (a sign-up flood) reaches the page's answer too, not only the data. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export async function loader(args: Route.LoaderArgs) {
  requireAnonymous(args);
  const params = new URL(args.request.url).searchParams;
  const redirectTo = safeRedirectPath(params.get("redirectTo"), "");
  const state = await signUpPageState(redirectTo);
  return {
    title: translatorFor(args.context)("auth:signup.title"),
    passwordMinLength: PASSWORD_MIN_LENGTH,
    email: state.invited ?? (params.get("email") ?? "").slice(0, 254),
    redirectTo,
    ...state,
  };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { submission } = await parseForm({ request, context }, signUpSchema);
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return invalidForm(submission, hideFields);
  const input = submission.value;
  const result = await withFormErrors(
    context,
    submission,
    () =>
      signUp(input, {
        clientAddress: context.get(clientAddressContext),
        delivery: mailDeliveryFor(args),
        device: deviceOf(request, context),
      }),
    { hideFields },
  );
  if (!result.ok) return result.response;
  if (result.value.kind === "signedIn") {
    return redirect(safeRedirectPath(input.redirectTo), { headers: { "Set-Cookie": sessionCookie(result.value.token) } });
  }
  return { sentTo: input.email, hours: VERIFICATION_LINK_LIFETIME / 3_600_000 };
}

export default function SignUp({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const sent = actionData && "sentTo" in actionData ? actionData : null;
  const [form, fields] = useForm({
    lastResult: actionData && !("sentTo" in actionData) ? actionData : undefined,
    defaultValue: { email: loaderData.email },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const footer = (
    <>
      {t("signup.haveAccount")}{" "}
      <Link
        to={loaderData.redirectTo ? signInHref(loaderData.redirectTo) : href("/login")}
        className="font-semibold text-brand-600 hover:text-brand-700"
      >
        {t("signup.signInLink")}
      </Link>
    </>
  );
  const title = <title>{titleMeta(sent ? t("signupSent.heading") : loaderData.title)[0]?.title}</title>;
  if (sent) {
    return (
      <AuthLayout heading={t("signupSent.heading")} footer={footer}>
        {title}
        <div className="space-y-4 [overflow-wrap:anywhere]" data-testid="signup-sent">
          <Alert tone="success">{t("signupSent.body", { email: sent.sentTo, hours: sent.hours })}</Alert>
          <p className="text-sm text-slate-600">{t("signupSent.hint")}</p>
        </div>
      </AuthLayout>
    );
  }
  if (loaderData.closed) {
    return (
      <AuthLayout heading={t("signup.heading")} footer={footer}>
        {title}
        <Alert tone="info">{t("signupPolicy.inviteOnly")}</Alert>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout heading={t("signup.heading")} footer={footer}>
      {title}
      <Form method="post" className="space-y-5 [overflow-wrap:anywhere]" {...getFormProps(form)}>
        {loaderData.invited ? <Alert tone="info">{t("signupPolicy.invited", { email: loaderData.invited })}</Alert> : null}
        {!loaderData.invited && loaderData.domains ? (
          <Alert tone="info">{t("signupPolicy.domains", { domains: loaderData.domains })}</Alert>
        ) : null}
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
          errorParams={{ max: EMAIL_MAX_LENGTH }}
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

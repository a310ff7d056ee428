// The page a verification mail links to. It shows which address it confirms, asks for the password
// chosen at sign-up, and has one button: the confirmation is a POST, so a mail scanner that fetches
// links cannot use the link up (or sign itself in), and the password keeps an owner who never signed
// up from confirming an account someone else made with their address (and password). Confirming
// verifies the address, signs the person in (second step first when they enrolled one) and
// continues to `redirectTo`. A link that no longer works answers 400; one for another account than
// the signed-in one 403; a wrong password 400 with the link still usable; none changes anything.
import { data, Form, href, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/verify-email";
import { verificationLinkTarget, verifyEmail } from "~/accounts/email-verification.server";
import { sessionCookie } from "~/auth/cookies.server";
import { verifyEmailFormSchema } from "~/auth/schemas";
import { isFullyAuthenticated } from "~/auth/session.server";
import { AuthLayout, BackToSignIn } from "~/components/auth-layout";
import { ErrorPage } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { titleMeta } from "~/components/page-title";
import { Alert, Button, Field } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { clientAddressContext, deviceOf } from "~/web/context.server";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { getAuth } from "~/web/guards.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

/** The link carries a secret: keep the page out of every cache. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader(args: Route.LoaderArgs) {
  const params = new URL(args.request.url).searchParams;
  const token = (params.get("token") ?? "").slice(0, 200);
  const t = translatorFor(args.context);
  const target = await verificationLinkTarget(token);
  const auth = getAuth(args.context);
  // As in the action: a sign-in halfway through its second step is nobody's yet.
  const signedIn = auth && isFullyAuthenticated(auth) ? auth : null;
  const state = !target ? "invalid" : signedIn && signedIn.user.id !== target.userId ? "otherAccount" : "ready";
  const page = {
    title: t("auth:verifyEmail.title"),
    token,
    redirectTo: safeRedirectPath(params.get("redirectTo"), ""),
    email: state === "ready" ? target!.email : null,
    problem:
      state === "invalid"
        ? t("errors:emailVerification.invalidLink")
        : state === "otherAccount"
          ? t("errors:emailVerification.otherAccount")
          : null,
  };
  return data(page, { status: state === "invalid" ? 400 : state === "otherAccount" ? 403 : 200 });
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { submission } = await parseForm({ request, context }, verifyEmailFormSchema);
  if (submission.status !== "success") return invalidForm(submission);
  const auth = getAuth(context);
  // A sign-in halfway through its second step is not "signed in as" anyone yet.
  const signedIn = auth && isFullyAuthenticated(auth) ? auth : null;
  const { token, password, redirectTo } = submission.value;
  const result = await withFormErrors(context, submission, () =>
    verifyEmail({ token, password }, signedIn, context.get(clientAddressContext), deviceOf(request, context)),
  );
  if (!result.ok) return result.response;
  const target = safeRedirectPath(redirectTo);
  if (!result.value.signedIn) throw redirect(target);
  const next = result.value.twoFactorPending ? `${href("/login/two-factor")}?redirectTo=${encodeURIComponent(target)}` : target;
  throw redirect(next, { headers: { "Set-Cookie": sessionCookie(result.value.token) } });
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state !== "idle";
  const formErrors = actionData && "error" in actionData ? actionData.error : undefined;
  return (
    <AuthLayout heading={t("verifyEmail.heading")} footer={<BackToSignIn />}>
      <div className="space-y-5 [overflow-wrap:anywhere]" data-testid="verify-email">
        {loaderData.problem ? (
          <Alert tone="warning">{loaderData.problem}</Alert>
        ) : (
          <Form method="post" className="space-y-4">
            <FormErrors errors={formErrors?.[""] ?? undefined} />
            <p className="text-sm text-slate-700">{t("verifyEmail.intro", { email: loaderData.email })}</p>
            {/* The account's address for password managers, which file the password under it. */}
            <input type="hidden" name="username" autoComplete="username" value={loaderData.email ?? ""} />
            <input type="hidden" name="token" value={loaderData.token} />
            <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
            <Field
              label={t("verifyEmail.password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              errors={formErrors?.password ?? undefined}
            />
            <Button type="submit" className="w-full" disabled={busy}>
              {t("verifyEmail.submit")}
            </Button>
          </Form>
        )}
      </div>
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

// The invitee's page, reached from the invitation mail's link. Signed in with the invited address:
// accept (and land in the organization). Signed out: sign in or sign up, and come back here. Signed
// in as someone else: say so, and offer to sign in with the invited address. Thin: the rules live in
// app/organizations/invitation-acceptance.server.ts.
import { useTranslation } from "~/i18n/use-translation";
import { data, Form, href, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/invitations.accept";
import { AuthLayout } from "~/components/auth-layout";
import { ErrorPage } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { titleMeta } from "~/components/page-title";
import { Alert, Button, ButtonLink } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { signInHref } from "~/lib/safe-redirect";
import { acceptInvitation, previewInvitation } from "~/organizations/invitation-acceptance.server";
import { switchActiveOrganization } from "~/organizations/organizations.server";
import { invitationTokenSchema } from "~/organizations/schemas";
import { isFullyAuthenticated } from "~/auth/session.server";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { getAuth, requireUser } from "~/web/guards.server";
import { z } from "zod";

const acceptSchema = z.object({ token: invitationTokenSchema }).strict();

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

/** The link carries a secret: keep the page out of every cache. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader(args: Route.LoaderArgs) {
  const url = new URL(args.request.url);
  const token = (url.searchParams.get("token") ?? "").slice(0, 200);
  const auth = getAuth(args.context);
  const signedInEmail = auth && isFullyAuthenticated(auth) ? auth.user.email : null;
  const invitation = await previewInvitation(token);
  const page = {
    title: translatorFor(args.context)("organizations:accept.title"),
    token,
    returnTo: `${url.pathname}?token=${encodeURIComponent(token)}`,
    invitation,
    signedInEmail,
  };
  // One answer for every link that cannot be accepted (unknown, expired, used, canceled, replaced).
  return data(page, { status: invitation.state === "invalid" ? 404 : 200 });
}

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  const { submission } = await parseForm(args, acceptSchema);
  if (submission.status !== "success") return invalidForm(submission);
  const result = await withFormErrors(args.context, submission, async () => {
    const accepted = await acceptInvitation(auth, submission.value.token);
    await switchActiveOrganization(auth, accepted.organizationId);
  });
  if (!result.ok) return result.response;
  throw redirect(href("/dashboard"));
}

export default function AcceptInvitation({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const busy = useNavigation().state !== "idle";
  const { invitation, signedInEmail, returnTo } = loaderData;
  const errors = actionData && "error" in actionData ? (actionData.error?.[""] ?? undefined) : undefined;
  if (invitation.state === "invalid") {
    return (
      <AuthLayout heading={t("accept.heading")}>
        <div className="space-y-5" data-testid="accept-invitation">
          <Alert tone="error">{t("accept.invalid")}</Alert>
          {signedInEmail ? (
            <ButtonLink to={href("/dashboard")} className="w-full">
              {t("accept.toDashboard")}
            </ButtonLink>
          ) : null}
        </div>
      </AuthLayout>
    );
  }
  const values = {
    organization: invitation.organizationName,
    inviter: invitation.inviterName ?? t("accept.someone"),
    role: tc(`roles.${invitation.role}`),
  };
  return (
    <AuthLayout heading={t("accept.heading")}>
      {/* Invited addresses can be long words: let them break anywhere (inherited by the warning and
          the "Sign in as …" button), so nothing runs out of its box or widens the page on phones. */}
      <div className="space-y-5 [overflow-wrap:anywhere]" data-testid="accept-invitation">
        <p className="text-sm text-slate-700">{t("accept.body", values)}</p>
        <p className="text-sm text-slate-500">{t("accept.forAddress", { email: invitation.email })}</p>
        {invitation.state === "pending" && signedInEmail === invitation.email ? (
          <Form method="post" className="space-y-4">
            <FormErrors errors={errors} />
            <input type="hidden" name="token" value={loaderData.token} />
            <Button type="submit" className="w-full" disabled={busy}>
              {t("accept.submit", values)}
            </Button>
          </Form>
        ) : null}
        {invitation.state === "pending" && signedInEmail && signedInEmail !== invitation.email ? (
          <>
            <Alert tone="warning">{t("accept.otherAccount", { current: signedInEmail, email: invitation.email })}</Alert>
            <ButtonLink to={signInHref(returnTo)} className="w-full">
              {t("accept.signInAs", { email: invitation.email })}
            </ButtonLink>
          </>
        ) : null}
        {invitation.state === "pending" && !signedInEmail ? (
          <div className="space-y-3">
            <ButtonLink to={signInHref(returnTo)} className="w-full">
              {t("accept.signIn")}
            </ButtonLink>
            <p className="text-center text-sm text-slate-600">
              {t("accept.noAccount")}{" "}
              <Link
                to={`${href("/signup")}?redirectTo=${encodeURIComponent(returnTo)}&email=${encodeURIComponent(invitation.email)}`}
                className="font-semibold text-brand-600 hover:text-brand-700"
              >
                {t("accept.signUp")}
              </Link>
            </p>
          </div>
        ) : null}
      </div>
    </AuthLayout>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

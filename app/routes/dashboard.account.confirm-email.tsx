// The page a change-of-address mail links to, inside the signed-in app (signed out, the guard sends
// the person to sign in and back). It names the old and the new address and asks for one click: the
// change is a POST, so a mail scanner fetching the link changes nothing. A link that no longer
// works answers 400, another account's link 403; neither changes anything.
import { data, Form, href, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/dashboard.account.confirm-email";
import { confirmEmailChange, emailChangeLinkTarget } from "~/accounts/email-change.server";
import { emailLinkFormSchema } from "~/auth/schemas";
import { ErrorPanel } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { titleMeta } from "~/components/page-title";
import { Alert, Button, ButtonLink, Card, PageHeader } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { invalidForm, parseForm, withFormErrors } from "~/web/forms.server";
import { requireUser } from "~/web/guards.server";
import { mailDeliveryFor } from "~/web/mail-delivery.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

/** The link carries a secret: keep the page out of every cache. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  const t = translatorFor(args.context);
  const token = (new URL(args.request.url).searchParams.get("token") ?? "").slice(0, 200);
  const target = await emailChangeLinkTarget(token);
  const state = !target ? "invalid" : target.userId !== auth.user.id ? "otherAccount" : "ready";
  const page = {
    title: t("auth:emailChange.title"),
    token,
    current: auth.user.email,
    email: state === "ready" ? target!.newEmail : null,
    problem:
      state === "invalid" ? t("errors:emailChange.invalidLink") : state === "otherAccount" ? t("errors:emailChange.otherAccount") : null,
  };
  return data(page, { status: state === "invalid" ? 400 : state === "otherAccount" ? 403 : 200 });
}

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  const { submission } = await parseForm(args, emailLinkFormSchema);
  if (submission.status !== "success") return invalidForm(submission);
  const result = await withFormErrors(args.context, submission, () =>
    confirmEmailChange(auth, submission.value.token, mailDeliveryFor(args)),
  );
  if (!result.ok) return result.response;
  throw redirect(`${href("/dashboard/account")}?notice=emailChanged`);
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state !== "idle";
  const errors = actionData && "error" in actionData ? (actionData.error?.[""] ?? undefined) : undefined;
  return (
    <div className="max-w-xl">
      <PageHeader title={t("emailChange.heading")} />
      <Card>
        <div className="space-y-5 [overflow-wrap:anywhere]" data-testid="confirm-email">
          {loaderData.problem ? (
            <Alert tone="warning">{loaderData.problem}</Alert>
          ) : (
            <Form method="post" className="space-y-4">
              <FormErrors errors={errors} />
              <p className="text-sm text-slate-700">{t("emailChange.intro", { current: loaderData.current, email: loaderData.email })}</p>
              <input type="hidden" name="token" value={loaderData.token} />
              <Button type="submit" disabled={busy}>
                {t("emailChange.submit")}
              </Button>
            </Form>
          )}
          <ButtonLink to={href("/dashboard/account")} variant="secondary">
            {t("emailChange.backToAccount")}
          </ButtonLink>
        </div>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

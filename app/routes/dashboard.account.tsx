// The signed-in person's account: profile (name; address changed through a mailed link), password
// change, and the sessions they can end.
// Thin: the rules live in app/accounts/account-security.server.ts, the page's parts in app/accounts/ui/account-settings.tsx.
import { data, href, redirect } from "react-router";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import type { Route } from "./+types/dashboard.account";
import { changePassword, listSessions, revokeOtherSessions, revokeSession } from "~/accounts/account-security.server";
import {
  changeEmailFormSchema,
  changePasswordFormSchema,
  deleteAccountFormSchema,
  sessionIdSchema,
  updateNameFormSchema,
} from "~/auth/schemas";
import { EMAIL_CHANGE_LINK_LIFETIME, requestEmailChange, updateName } from "~/accounts/email-change.server";
import { mailDeliveryFor } from "~/web/mail-delivery.server";
import { deleteAccount } from "~/accounts/account-deletion.server";
import { clearedSessionCookie } from "~/auth/cookies.server";
import { isFresh } from "~/auth/session.server";
import { signInHref } from "~/lib/safe-redirect";
import { Alert, PageHeader } from "~/components/ui";
import { DeleteAccountCard, PasswordCard, SessionsCard, type AccountActionData } from "~/accounts/ui/account-settings";
import { ProfileCard } from "~/accounts/ui/profile-card";
import { ErrorPanel } from "~/components/error-page";
import { titleMeta } from "~/components/page-title";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireUser } from "~/web/guards.server";
import { badRequest } from "~/web/http-errors.server";
import { isDomainError } from "~/lib/domain-error";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  return {
    title: translatorFor(args.context)("auth:account.title"),
    user: { name: auth.user.name, email: auth.user.email },
    // Back from a confirmed change of address (dashboard.account.confirm-email.tsx).
    emailChanged: new URL(args.request.url).searchParams.get("notice") === "emailChanged",
    sessions: await listSessions(auth),
    deletion: {
      fresh: isFresh(auth),
      twoFactor: auth.user.twoFactorEnabled,
      signInAgainHref: signInHref(`${href("/dashboard/account")}#delete-account`),
    },
  };
}

const sessionActions = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("revoke"), sessionId: sessionIdSchema }),
  z.object({ intent: z.literal("revokeOthers") }),
]);

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  // One read of the body; the password schema's result is used only by the password form.
  const { formData, submission } = await parseForm(args, changePasswordFormSchema);
  if (formData.get("intent") === "password") {
    const hideFields = ["currentPassword", "newPassword", "confirmPassword"];
    if (submission.status !== "success")
      return data<AccountActionData>({ intent: "password", reply: submission.reply({ hideFields }) }, { status: 400 });
    const result = await withFormErrors(args.context, submission, () => changePassword(auth, submission.value), { hideFields });
    if (!result.ok) return data<AccountActionData>({ intent: "password", reply: result.reply }, result.init);
    return data<AccountActionData>({ intent: "password", reply: submission.reply({ resetForm: true }), signedOut: result.value });
  }
  if (formData.get("intent") === "name") {
    const named = parseWithZod(formData, { schema: updateNameFormSchema });
    if (named.status !== "success") return data<AccountActionData>({ intent: "name", reply: named.reply() }, { status: 400 });
    await updateName(auth, named.value.name);
    return data<AccountActionData>({ intent: "name", reply: named.reply(), saved: true });
  }
  if (formData.get("intent") === "email") {
    const hideFields = ["currentPassword"];
    const change = parseWithZod(formData, { schema: changeEmailFormSchema });
    if (change.status !== "success")
      return data<AccountActionData>({ intent: "email", reply: change.reply({ hideFields }) }, { status: 400 });
    const result = await withFormErrors(args.context, change, () => requestEmailChange(auth, change.value, mailDeliveryFor(args)), {
      hideFields,
    });
    if (!result.ok) return data<AccountActionData>({ intent: "email", reply: result.reply }, result.init);
    const sent = { sentTo: change.value.newEmail, hours: EMAIL_CHANGE_LINK_LIFETIME / 3_600_000 };
    return data<AccountActionData>({ intent: "email", reply: change.reply({ resetForm: true }), ...sent });
  }
  if (formData.get("intent") === "delete") {
    const hideFields = ["password", "code"];
    const deletion = parseWithZod(formData, { schema: deleteAccountFormSchema });
    if (deletion.status !== "success")
      return data<AccountActionData>({ intent: "delete", reply: deletion.reply({ hideFields }) }, { status: 400 });
    const { intent: _intent, ...input } = deletion.value;
    const result = await withFormErrors(args.context, deletion, () => deleteAccount(auth, input), { hideFields });
    if (!result.ok) return data<AccountActionData>({ intent: "delete", reply: result.reply }, result.init);
    throw redirect(`${href("/login")}?notice=accountDeleted`, { headers: { "Set-Cookie": clearedSessionCookie() } });
  }
  const parsed = sessionActions.safeParse(Object.fromEntries(formData));
  if (!parsed.success) throw badRequest(args.context);
  const value = parsed.data;
  if (value.intent === "revoke") {
    // Already ended (a second click, another tab) is what was asked for; another account's session
    // is the same "not found" to the domain and ends nothing.
    const ended = await revokeSession(auth, value.sessionId).then(
      () => 1,
      (error: unknown) => {
        if (isDomainError(error) && error.code === "NOT_FOUND") return 0;
        throw error;
      },
    );
    return data<AccountActionData>({ intent: "revoke", signedOut: ended });
  }
  return data<AccountActionData>({ intent: "revokeOthers", signedOut: await revokeOtherSessions(auth) });
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  return (
    <div className="space-y-6">
      <PageHeader title={t("account.title")} description={t("account.intro")} />
      {loaderData.emailChanged ? <Alert tone="success">{t("emailChange.done", { email: loaderData.user.email })}</Alert> : null}
      <ProfileCard user={loaderData.user} actionData={actionData} />
      <PasswordCard actionData={actionData} />
      <SessionsCard sessions={loaderData.sessions} actionData={actionData} />
      <DeleteAccountCard email={loaderData.user.email} {...loaderData.deletion} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

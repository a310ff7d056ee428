// The account page's parts: the password change form, the session list and deleting the account
// (the profile is profile-card.tsx). The
// rules live in app/accounts/account-security.server.ts; the route (app/routes/dashboard.account.tsx) wires them.
import { getFormProps, getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { Alert, Badge, Button, Card, Field, SignInAgain } from "~/components/ui";
import { FormErrors } from "~/components/form-errors";
import { LocalTime } from "~/components/local-time";
import type { AccountSession } from "~/accounts/account-security.server";
import { changePasswordFormSchema, deleteAccountFormSchema } from "~/auth/schemas";
import { PASSWORD_MIN_LENGTH } from "~/auth/password-rules";
import { validateOnSubmit } from "~/components/form-validation";

export type AccountActionData =
  | { intent: "name"; reply: SubmissionResult<string[]>; saved?: boolean }
  | { intent: "email"; reply: SubmissionResult<string[]>; sentTo?: string; hours?: number }
  | { intent: "password"; reply?: SubmissionResult<string[]>; signedOut?: number }
  | { intent: "revoke" | "revokeOthers"; signedOut: number }
  | { intent: "delete"; reply: SubmissionResult<string[]> };

/** "Firefox on Linux" from a User-Agent, for people; the raw text stays in the title. */
export function describeUserAgent(userAgent: string | null): { browser: string; system: string } | null {
  if (!userAgent) return null;
  const browser =
    [
      [/Edg\//, "Edge"],
      [/OPR\//, "Opera"],
      [/Firefox\//, "Firefox"],
      [/Chrom(e|ium)\//, "Chrome"],
      [/Safari\//, "Safari"],
      [/^curl\//, "curl"],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? null;
  const system =
    [
      [/Android/, "Android"],
      [/iPhone|iPad|iOS/, "iOS"],
      [/Mac OS X|Macintosh/, "macOS"],
      [/Windows/, "Windows"],
      [/CrOS/, "ChromeOS"],
      [/Linux/, "Linux"],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? null;
  return browser && system ? { browser: browser as string, system: system as string } : null;
}

/** A new password and its repetition, with the length rule as the hint (password change and reset). */
export function NewPasswordFields({
  newPassword,
  confirmPassword,
}: {
  newPassword: FieldMetadata<string>;
  confirmPassword: FieldMetadata<string>;
}) {
  const { t } = useTranslation("auth");
  return (
    <>
      <Field
        label={t("account.newPassword")}
        hint={t("account.newPasswordHint", { min: PASSWORD_MIN_LENGTH })}
        autoComplete="new-password"
        errors={newPassword.errors}
        errorParams={{ min: PASSWORD_MIN_LENGTH }}
        {...getInputProps(newPassword, { type: "password" })}
      />
      <Field
        label={t("account.confirmPassword")}
        autoComplete="new-password"
        errors={confirmPassword.errors}
        {...getInputProps(confirmPassword, { type: "password" })}
      />
    </>
  );
}

export function PasswordCard({ actionData }: { actionData: AccountActionData | undefined }) {
  const { t } = useTranslation("auth");
  const result = actionData?.intent === "password" ? actionData : undefined;
  const [form, fields] = useForm({
    // A new form after a change, so the fields are empty again.
    id: `password-${result?.signedOut === undefined ? "edit" : "done"}`,
    lastResult: result?.reply,
    ...validateOnSubmit(changePasswordFormSchema),
  });
  return (
    <Card title={t("account.password")} description={t("account.passwordIntro")}>
      {result?.signedOut !== undefined ? (
        <div className="mb-4">
          <Alert tone="success">{t("account.passwordChanged", { count: result.signedOut })}</Alert>
        </div>
      ) : null}
      <Form method="post" className="max-w-md space-y-5" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="password" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field
          label={t("account.currentPassword")}
          autoComplete="current-password"
          errors={fields.currentPassword.errors}
          {...getInputProps(fields.currentPassword, { type: "password" })}
        />
        <NewPasswordFields newPassword={fields.newPassword} confirmPassword={fields.confirmPassword} />
        <Button type="submit">{t("account.changePassword")}</Button>
      </Form>
    </Card>
  );
}

export function SessionsCard({ sessions, actionData }: { sessions: AccountSession[]; actionData: AccountActionData | undefined }) {
  const { t } = useTranslation("auth");
  const others = sessions.filter((s) => !s.current).length;
  const deviceName = (session: AccountSession) => {
    const device = describeUserAgent(session.userAgent);
    return device ? t("account.deviceOn", device) : t("account.unknownDevice");
  };
  const done =
    actionData?.intent === "revoke"
      ? t("account.signedOutOne")
      : actionData?.intent === "revokeOthers"
        ? t("account.signedOutOthers", { count: actionData.signedOut })
        : null;
  return (
    <Card title={t("account.sessions")} description={t("account.sessionsIntro")}>
      {done ? (
        <div className="mb-4">
          <Alert tone="success">{done}</Alert>
        </div>
      ) : null}
      <ul className="-my-3 divide-y divide-slate-100" aria-label={t("account.sessions")} data-testid="account-sessions">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
            <div className="min-w-0 space-y-0.5 text-sm">
              <p className="font-medium text-slate-900" title={session.userAgent ?? undefined}>
                {deviceName(session)} {session.current ? <Badge tone="green">{t("account.thisSession")}</Badge> : null}
              </p>
              <p className="text-slate-600">
                {t("account.address")}: {session.address ?? "—"}
              </p>
              <p className="text-slate-600">
                {t("account.lastSeen")}: <LocalTime iso={session.lastSeenAt} /> · {t("account.signedIn")}:{" "}
                <LocalTime iso={session.createdAt} />
              </p>
            </div>
            {session.current ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="sessionId" value={session.id} />
                <Button
                  type="submit"
                  variant="secondary"
                  size="sm"
                  aria-label={t("account.signOutSessionLabel", { device: deviceName(session) })}
                >
                  {t("account.signOutSession")}
                </Button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <div className="mt-4">
        {others > 0 ? (
          <Form method="post">
            <input type="hidden" name="intent" value="revokeOthers" />
            <Button type="submit" variant="secondary">
              {t("account.signOutOthers")}
            </Button>
          </Form>
        ) : (
          <p className="text-sm text-slate-500">{t("account.noOtherSessions")}</p>
        )}
      </div>
    </Card>
  );
}

/**
 * The danger zone: deleting the account. It needs a recent sign-in (else the card offers one),
 * the password, the second factor when enrolled, and the address typed to confirm; the card says
 * what happens to the person's organizations before anything is typed.
 */
export function DeleteAccountCard({
  email,
  fresh,
  twoFactor,
  signInAgainHref,
  actionData,
}: {
  email: string;
  fresh: boolean;
  twoFactor: boolean;
  signInAgainHref: string;
  actionData: AccountActionData | undefined;
}) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useForm({
    id: "delete-account-form",
    lastResult: actionData?.intent === "delete" ? actionData.reply : undefined,
    ...validateOnSubmit(deleteAccountFormSchema),
  });
  return (
    <Card id="delete-account" tone="danger" title={t("deleteAccount.title")} description={t("deleteAccount.description")}>
      <ul className="mb-4 list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>{t("deleteAccount.soleMember")}</li>
        <li>{t("deleteAccount.soleOwner")}</li>
        <li>{t("deleteAccount.history")}</li>
      </ul>
      {fresh ? (
        <Form method="post" className="max-w-md space-y-5" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="delete" />
          <FormErrors errors={form.errors} id={form.errorId} />
          <Field
            label={t("deleteAccount.password")}
            autoComplete="current-password"
            errors={fields.password.errors}
            {...getInputProps(fields.password, { type: "password" })}
          />
          {twoFactor ? (
            <Field
              label={t("deleteAccount.code")}
              hint={t("deleteAccount.codeHint")}
              autoComplete="one-time-code"
              inputMode="text"
              errors={fields.code.errors}
              {...getInputProps(fields.code, { type: "text" })}
            />
          ) : null}
          <Field
            label={t("deleteAccount.confirm", { email })}
            autoComplete="off"
            spellCheck={false}
            errors={fields.confirm.errors}
            {...getInputProps(fields.confirm, { type: "text" })}
          />
          <Button type="submit" variant="danger" disabled={busy}>
            {t("deleteAccount.submit")}
          </Button>
        </Form>
      ) : (
        <SignInAgain message={t("deleteAccount.signInAgain")} href={signInAgainHref} label={t("deleteAccount.signInAgainButton")} />
      )}
    </Card>
  );
}

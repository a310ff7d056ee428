// The account page's profile: the name, saved at once, and the e-mail address, changed through a
// link mailed to the new address (app/accounts/email-change.server.ts). The answer to a change of
// address is the same whether or not the new address already has an account.
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, href, Link, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { Alert, Button, Card, Field } from "~/components/ui";
import { FormErrors } from "~/components/form-errors";
import { validateOnSubmit } from "~/components/form-validation";
import { changeEmailFormSchema, EMAIL_MAX_LENGTH, updateNameFormSchema } from "~/auth/schemas";
import type { AccountActionData } from "./account-settings";

export function ProfileCard({ user, actionData }: { user: { name: string; email: string }; actionData: AccountActionData | undefined }) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state !== "idle";
  const named = actionData?.intent === "name" ? actionData : undefined;
  const mailed = actionData?.intent === "email" ? actionData : undefined;
  const [nameForm, nameFields] = useForm({
    id: "profile-name",
    lastResult: named?.reply,
    defaultValue: { name: user.name },
    ...validateOnSubmit(updateNameFormSchema),
  });
  const [emailForm, emailFields] = useForm({
    // A new form after a request, so the password field is empty again.
    id: `profile-email-${mailed?.sentTo ? "sent" : "edit"}`,
    lastResult: mailed?.reply,
    ...validateOnSubmit(changeEmailFormSchema),
  });
  return (
    <Card title={t("account.profile")}>
      <div className="grid gap-8 lg:grid-cols-2 [overflow-wrap:anywhere]">
        <Form method="post" className="max-w-md space-y-4" {...getFormProps(nameForm)}>
          <input type="hidden" name="intent" value="name" />
          {named?.saved ? <Alert tone="success">{t("profile.nameSaved")}</Alert> : null}
          <FormErrors errors={nameForm.errors} id={nameForm.errorId} />
          <Field
            label={t("profile.nameLabel")}
            autoComplete="name"
            errors={nameFields.name.errors}
            errorParams={{ max: 80 }}
            {...getInputProps(nameFields.name, { type: "text" })}
          />
          <Button type="submit" variant="secondary" disabled={busy}>
            {t("profile.saveName")}
          </Button>
        </Form>
        <Form method="post" className="max-w-md space-y-4" {...getFormProps(emailForm)}>
          <input type="hidden" name="intent" value="email" />
          <div>
            <h3 className="text-sm font-semibold text-slate-900">{t("profile.emailTitle")}</h3>
            <p className="text-sm text-slate-900" data-testid="account-email">
              {user.email}
            </p>
            <p className="mt-1 text-sm text-slate-600">{t("profile.emailIntro")}</p>
          </div>
          {mailed?.sentTo ? (
            <Alert tone="success">{t("profile.emailSent", { email: mailed.sentTo, hours: mailed.hours, current: user.email })}</Alert>
          ) : null}
          <FormErrors errors={emailForm.errors} id={emailForm.errorId} />
          <Field
            label={t("profile.newEmail")}
            autoComplete="email"
            errors={emailFields.newEmail.errors}
            errorParams={{ max: EMAIL_MAX_LENGTH }}
            {...getInputProps(emailFields.newEmail, { type: "email" })}
          />
          <Field
            label={t("profile.currentPassword")}
            autoComplete="current-password"
            errors={emailFields.currentPassword.errors}
            {...getInputProps(emailFields.currentPassword, { type: "password" })}
          />
          <Button type="submit" variant="secondary" disabled={busy}>
            {t("profile.changeEmail")}
          </Button>
        </Form>
      </div>
      <p className="mt-6 text-sm text-slate-600">
        <Link to={href("/dashboard/account/security")} className="font-medium text-brand-600 hover:text-brand-700">
          {t("account.securityLink")}
        </Link>
      </p>
    </Card>
  );
}

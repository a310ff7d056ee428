// Invite someone by e-mail with a role (only the roles the caller may hand out are offered).
import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import { useSubmitting } from "~/components/use-submitting";
import { FormErrors } from "~/components/form-errors";
import { Button, Card, Field, controlClass, useFieldError } from "~/components/ui";
import type { Role } from "~/generated/prisma/enums";
import { EMAIL_MAX_LENGTH } from "~/auth/schemas";
import { memberActionSchema } from "~/organizations/schemas";
import { MEMBERS_PAGE_PATH } from "./members-page";
import { validateOnSubmit } from "~/components/form-validation";

export function InviteForm({ roles, lastResult }: { roles: Role[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const busy = useSubmitting();
  const [form, fields] = useForm({
    id: "invite",
    lastResult,
    defaultValue: { role: "member" },
    ...validateOnSubmit(memberActionSchema),
  });
  const roleError = useFieldError(fields.role.errors);
  return (
    <Card title={t("invite.title")} description={t("invite.description")} id="invite-someone">
      <Form method="post" action={MEMBERS_PAGE_PATH} className="space-y-4" {...getFormProps(form)} preventScrollReset>
        <input type="hidden" name="intent" value="invite" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
          <Field
            label={t("invite.email")}
            errors={fields.email.errors}
            errorParams={{ max: EMAIL_MAX_LENGTH }}
            autoComplete="off"
            {...getInputProps(fields.email, { type: "email" })}
          />
          <div className="space-y-1.5">
            <label htmlFor={fields.role.id} className="block text-sm font-medium text-slate-800">
              {t("invite.role")}
            </label>
            <select {...getSelectProps(fields.role)} className={controlClass}>
              {roles.map((role) => (
                <option key={role} value={role}>
                  {tc(`roles.${role}`)}
                </option>
              ))}
            </select>
            {roleError ? (
              <p className="text-sm text-red-700" role="alert">
                {roleError}
              </p>
            ) : null}
          </div>
        </div>
        <Button type="submit" disabled={busy}>
          {t("invite.submit")}
        </Button>
      </Form>
    </Card>
  );
}

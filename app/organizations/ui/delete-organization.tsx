// The danger zone: deleting the organization, for owners. The name is typed to confirm, and the
// session must be fresh (signed in again recently); otherwise the card offers to sign in again.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { FormErrors } from "~/components/form-errors";
import { Button, Card, Field, SignInAgain } from "~/components/ui";

export function DeleteOrganizationCard({
  name,
  fresh,
  signInAgainHref,
  lastResult,
}: {
  name: string;
  fresh: boolean;
  signInAgainHref: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation("organizations");
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useForm<{ confirmName: string }>({ id: "delete-organization", lastResult });
  return (
    <Card tone="danger" title={t("delete.title")} description={t("delete.description", { name })}>
      {fresh ? (
        <Form method="post" className="max-w-xl space-y-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="delete" />
          <FormErrors errors={form.errors} id={form.errorId} />
          <Field
            label={t("delete.confirmLabel", { name })}
            errors={fields.confirmName.errors}
            autoComplete="off"
            {...getInputProps(fields.confirmName, { type: "text" })}
          />
          <Button type="submit" variant="danger" disabled={busy}>
            {t("delete.submit")}
          </Button>
        </Form>
      ) : (
        <SignInAgain message={t("delete.signInAgain")} href={signInAgainHref} label={t("delete.signInAgainButton")} />
      )}
    </Card>
  );
}

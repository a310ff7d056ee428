// The integrity page's form: the days to check (both optional) and "Verify". A POST (a
// verification is work the server does, not a page to bookmark); works without JavaScript.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import type { z } from "zod";
import { FormErrors } from "~/components/form-errors";
import { validateOnSubmit } from "~/components/form-validation";
import { Button, Card, Field } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { verifyRangeSchema } from "~/audit-integrity/verify-range";

export function VerifyForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation("auditIntegrity");
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useForm<z.input<typeof verifyRangeSchema>, z.output<typeof verifyRangeSchema>, string[]>({
    id: "audit-verify",
    lastResult,
    ...validateOnSubmit(verifyRangeSchema),
  });
  return (
    <Card title={t("form.heading")} description={t("form.hint")}>
      <Form method="post" className="space-y-5" {...getFormProps(form)} data-testid="verify-form">
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid max-w-xl grid-cols-1 gap-4 sm:grid-cols-2">
          <Field label={t("form.from")} errors={fields.from.errors} {...getInputProps(fields.from, { type: "date" })} />
          <Field label={t("form.to")} errors={fields.to.errors} {...getInputProps(fields.to, { type: "date" })} />
        </div>
        <Button type="submit" className="w-full sm:w-auto" disabled={busy} data-testid="verify-submit">
          {busy ? t("form.running") : t("form.submit")}
        </Button>
      </Form>
    </Card>
  );
}

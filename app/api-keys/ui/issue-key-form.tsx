// Issuing a key: name, scopes (checkboxes, at least one), optional expiry day (UTC). Validated in
// the browser with the same schema the action uses.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import type { z } from "zod";
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { FormErrors } from "~/components/form-errors";
import { Alert, Button, Card, Field, cx, useFieldError } from "~/components/ui";
import { KEY_NAME_MAX, MAX_UNREVOKED_KEYS, issueKeyFormSchema } from "~/api-keys/schemas";
import { ISSUE_KEY_NAME_ID, KEYS_PAGE_PATH, scopeLabelKey } from "./key-page";
import { validateOnSubmit } from "~/components/form-validation";

function ScopeChoices({ name, errors, selected }: { name: string; errors?: string[]; selected: string[] }) {
  const { t } = useTranslation("apiKeys");
  const error = useFieldError(errors);
  return (
    <fieldset aria-describedby={error ? "scopes-error" : "scopes-hint"} aria-invalid={error ? true : undefined}>
      <legend className="block text-sm font-medium text-slate-800">{t("issue.scopes")}</legend>
      <p id="scopes-hint" className="text-sm text-slate-500">
        {t("issue.scopesHint")}
      </p>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {API_KEY_SCOPES.map((scope) => (
          <label
            key={scope}
            className={cx(
              "flex cursor-pointer items-start gap-3 rounded-lg px-3 py-2.5 text-sm ring-1 ring-inset transition-colors hover:bg-slate-50 has-[:checked]:bg-brand-50 has-[:checked]:ring-brand-300 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600",
              error ? "ring-red-300" : "ring-slate-200",
            )}
          >
            <input
              type="checkbox"
              name={name}
              value={scope}
              defaultChecked={selected.includes(scope)}
              className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600 focus:outline-none"
            />
            <span className="min-w-0">
              <span className="block font-medium text-slate-900">{t(scopeLabelKey(scope))}</span>
              <code className="block font-mono text-xs text-slate-500">{scope}</code>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id="scopes-error" className="mt-1.5 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function IssueForm({ lastResult, limitReached }: { lastResult: SubmissionResult<string[]> | undefined; limitReached: boolean }) {
  const { t } = useTranslation("apiKeys");
  return (
    <Card id="issue-key-card" className="scroll-mt-24" title={t("issue.heading")} description={t("issue.description")}>
      {/* At the limit a form could only be refused: the card says why instead, and the page stays short. */}
      {limitReached ? (
        <Alert tone="info">{t("issue.limitReached", { limit: MAX_UNREVOKED_KEYS })}</Alert>
      ) : (
        <IssueFormFields lastResult={lastResult} />
      )}
    </Card>
  );
}

function IssueFormFields({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { t } = useTranslation("apiKeys");
  const [form, fields] = useForm<z.input<typeof issueKeyFormSchema>, z.output<typeof issueKeyFormSchema>, string[]>({
    id: "issue-key",
    lastResult,
    ...validateOnSubmit(issueKeyFormSchema),
  });
  return (
    <Form method="post" action={KEYS_PAGE_PATH} className="max-w-2xl space-y-6" {...getFormProps(form)}>
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="issue" />
      <div className="max-w-md">
        <Field
          label={t("issue.name")}
          hint={t("issue.nameHint", { max: KEY_NAME_MAX })}
          errors={fields.name.errors}
          errorParams={{ max: KEY_NAME_MAX }}
          {...getInputProps(fields.name, { type: "text" })}
          id={ISSUE_KEY_NAME_ID}
          maxLength={KEY_NAME_MAX}
          autoComplete="off"
        />
      </div>
      <ScopeChoices
        key={fields.scopes.key}
        name={fields.scopes.name}
        errors={Object.values(fields.scopes.allErrors).flat()}
        selected={[fields.scopes.initialValue ?? []].flat().filter((v): v is string => typeof v === "string")}
      />
      <div className="max-w-sm">
        <Field
          label={t("issue.expiresOn")}
          hint={t("issue.expiresOnHint")}
          errors={fields.expiresOn.errors}
          {...getInputProps(fields.expiresOn, { type: "date" })}
        />
      </div>
      <div className="border-t border-slate-100 pt-5">
        <Button type="submit" className="w-full sm:w-auto">
          {t("issue.submit")}
        </Button>
      </div>
    </Form>
  );
}

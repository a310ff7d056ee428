// The leaked-key lookup page's parts: the form a secret is pasted into, and the answer. The secret
// goes in a POST body only (never a URL) and is not rendered back: the action's reply leaves it out
// (conform's hideFields), and the browser is asked not to remember, correct or spell-check it.
// The answer is either the key (any state) with its history and a one-step revoke, or one sentence
// for every other secret alike (docs/decisions/0057-leaked-key-lookup.md).
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useState } from "react";
import { Form } from "react-router";
import { useSubmitting } from "~/components/use-submitting";
import type { z } from "zod";
import type { ApiKeyView } from "~/api-keys/api-keys.server";
import { LOOKUP_SECRET_MAX, lookupFormSchema } from "~/api-keys/lookup-schema";
import { confirmLinkProps } from "~/components/confirm-dialog";
import { FormErrors } from "~/components/form-errors";
import { validateOnSubmit } from "~/components/form-validation";
import { localTime, useTimeSetting } from "~/components/local-time";
import { useFormats } from "~/components/use-formats";
import { Alert, Button, Card, Field, badgeClass, buttonClass } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { KeyConfirmDialog, type KeyConfirmation } from "./key-confirmation";
import { historyLink } from "./key-history-link";
import { useKeyListText } from "./key-list-text";
import { KEYS_PAGE_PATH } from "./key-page";

export const LOOKUP_SECRET_ID = "lookup-secret";

/** Every answer of the lookup page's action: the form's reply, and the key (or null) when the lookup ran. */
export interface LookupActionData {
  reply: SubmissionResult<string[]>;
  found: { key: ApiKeyView | null } | null;
}

/** `onEdit`: the field changed after an answer, which then no longer answers what the field holds. */
export function LookupForm({ lastResult, onEdit }: { lastResult: SubmissionResult<string[]> | undefined; onEdit: () => void }) {
  const { t } = useTranslation("apiKeys");
  const busy = useSubmitting();
  const [form, fields] = useForm<z.input<typeof lookupFormSchema>, z.output<typeof lookupFormSchema>, string[]>({
    id: "key-lookup",
    lastResult,
    ...validateOnSubmit(lookupFormSchema),
  });
  return (
    <Card>
      {/* Not replace: Back returns to the form; the browser resubmits a POST only when asked. */}
      <Form method="post" className="max-w-2xl space-y-5" {...getFormProps(form)} onInput={onEdit}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field
          label={t("lookup.secret")}
          hint={t("lookup.secretHint")}
          errors={fields.secret.errors}
          errorParams={{ max: LOOKUP_SECRET_MAX }}
          {...getInputProps(fields.secret, { type: "text" })}
          id={LOOKUP_SECRET_ID}
          className="font-mono"
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder="sk_…"
        />
        <Button type="submit" className="w-full sm:w-auto" disabled={busy}>
          {t("lookup.submit")}
        </Button>
      </Form>
    </Card>
  );
}

function stateTone(state: ApiKeyView["state"]) {
  return state === "active" ? "green" : state === "expired" ? "amber" : "slate";
}

/** The answer: the same words for an unknown secret, another organization's and non-secrets. */
export function LookupResult({ found, canViewHistory }: { found: { key: ApiKeyView | null }; canViewHistory: boolean }) {
  const { t } = useTranslation("apiKeys");
  return (
    <div aria-live="polite" data-testid="lookup-result">
      {found.key ? (
        <FoundKey apiKey={found.key} canViewHistory={canViewHistory} />
      ) : (
        <Alert tone="info">
          <span className="block font-medium" data-testid="lookup-not-found">
            {t("lookup.notFound")}
          </span>
          <span className="block">{t("lookup.notFoundHint")}</span>
        </Alert>
      )}
    </div>
  );
}

function FoundKey({ apiKey, canViewHistory }: { apiKey: ApiKeyView; canViewHistory: boolean }) {
  const { t } = useTranslation("apiKeys");
  const text = useKeyListText();
  const formats = useFormats();
  const time = useTimeSetting();
  // The keys page's own confirmation: with JavaScript its dialog, posting to the keys page's
  // revoke; without, the link opens the keys page's confirm view of this key.
  const [confirmation, setConfirmation] = useState<KeyConfirmation | null>(null);
  const [confirming, setConfirming] = useState(false);
  const unrevoked = apiKey.state !== "revoked";
  return (
    <Card tone={apiKey.state === "active" ? "danger" : "default"} title={t("lookup.foundHeading", { name: apiKey.name })}>
      <div className="space-y-4" data-testid="lookup-key" data-key-id={apiKey.id}>
        <p className="text-sm text-slate-700">{t(`lookup.${apiKey.state}`)}</p>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium text-slate-500">{t("lookup.state")}</dt>
          <dd>
            <span className={badgeClass(stateTone(apiKey.state))} data-testid="key-state">
              {text.states[apiKey.state]}
            </span>
          </dd>
          <dt className="font-medium text-slate-500">{text.prefix}</dt>
          <dd>
            <code className="font-mono" data-testid="key-prefix">{`${apiKey.prefix}…`}</code>
          </dd>
          <dt className="font-medium text-slate-500">{text.scopesLabel}</dt>
          <dd data-testid="key-scopes">{apiKey.scopes.map((scope) => text.scopes[scope] ?? scope).join(", ")}</dd>
          <dt className="font-medium text-slate-500">{text.created}</dt>
          <dd>
            {localTime(apiKey.createdAt, time)}
            {apiKey.createdBy && !apiKey.createdBy.deleted ? ` ${t("list.createdByName", { name: apiKey.createdBy.name })}` : null}
          </dd>
          <dt className="font-medium text-slate-500">{t("lookup.expiry")}</dt>
          <dd>{apiKey.expiresAt ? formats.date(apiKey.expiresAt) : text.noExpiry}</dd>
          <dt className="font-medium text-slate-500">{text.lastUsed}</dt>
          <dd data-testid="key-last-used">{apiKey.lastUsedAt ? localTime(apiKey.lastUsedAt, time) : text.neverUsed}</dd>
          {apiKey.revokedAt ? (
            <>
              <dt className="font-medium text-slate-500">{t("lookup.revokedAt")}</dt>
              <dd>{localTime(apiKey.revokedAt, time)}</dd>
            </>
          ) : null}
        </dl>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          {unrevoked ? (
            <a
              {...confirmLinkProps(`${KEYS_PAGE_PATH}?confirm=revoke&key=${encodeURIComponent(apiKey.id)}`, (trigger) => {
                setConfirmation({ intent: "revoke", apiKey, trigger });
                setConfirming(true);
              })}
              className={buttonClass("danger", "w-full sm:w-auto")}
              data-testid="lookup-revoke"
            >
              {t("lookup.revokeKey")}
            </a>
          ) : null}
          {canViewHistory ? historyLink(apiKey, text) : null}
        </div>
      </div>
      <KeyConfirmDialog confirmation={confirmation} open={confirming} onOpenChange={setConfirming} text={text} />
    </Card>
  );
}

export function BackToKeys() {
  const { t } = useTranslation("apiKeys");
  return (
    <a href={KEYS_PAGE_PATH} className={buttonClass("secondary", "w-full sm:w-auto")}>
      {t("lookup.backToKeys")}
    </a>
  );
}

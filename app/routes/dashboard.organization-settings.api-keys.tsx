// The keys page: list, issue, rotate, revoke. Thin: the rules live in app/api-keys/. Works
// without JavaScript: rotate and revoke confirm on a `?confirm=rotate&key=<id>` view; with
// JavaScript the same confirmation opens in a dialog. A secret appears only in the action's
// answer (never in the loader), so it is shown exactly once.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, data, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/dashboard.organization-settings.api-keys";
import { issueKey, listKeys, revokeKey, rotateKey, type ApiKeyView } from "~/api-keys/api-keys.server";
import { API_KEY_SCOPES, KEY_NAME_MAX, MAX_UNREVOKED_KEYS, issueKeyFormSchema, keyActionFormSchema } from "~/api-keys/scopes";
import { requireActiveOrgPermission } from "~/auth/guards.server";
import { FormErrors } from "~/components/form-errors";
import { Alert, Badge, Button, Card, Field, PageHeader, useFieldError } from "~/components/ui";
import { getInstance } from "~/i18n/i18next.server";
import { invalidForm, parseForm, withFormErrors } from "~/lib/forms.server";

const actionSchema = z.discriminatedUnion("intent", [issueKeyFormSchema, keyActionFormSchema]);

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title }];
}

/** The page can carry a freshly issued secret: never cache it anywhere. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrgPermission(args, "apiKey:manage");
  const keys = await listKeys(access, access.organization.id);
  const url = new URL(args.request.url);
  const confirmIntent = url.searchParams.get("confirm");
  const confirmKey = keys.find((k) => k.id === url.searchParams.get("key"));
  return {
    title: getInstance(args.context).t("apiKeys:title"),
    organizationName: access.organization.name,
    keys,
    unrevoked: keys.filter((k) => k.state !== "revoked").length,
    confirm:
      (confirmIntent === "rotate" || confirmIntent === "revoke") && url.searchParams.has("key")
        ? { intent: confirmIntent as "rotate" | "revoke", key: confirmKey ?? null }
        : null,
  };
}

type SecretResult = { intent: "issue" | "rotate"; name: string; secret: string; prefix: string };

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrgPermission(args, "apiKey:manage");
  const organizationId = access.organization.id;
  const { submission } = await parseForm(args.request, actionSchema);
  if (submission.status !== "success") return invalidForm(submission);
  const input = submission.value;
  const noStore = { headers: { "Cache-Control": "no-store" } };
  if (input.intent === "issue") {
    const result = await withFormErrors(args.context, submission, () =>
      issueKey(access, organizationId, { name: input.name, scopes: input.scopes, expiresAt: input.expiresOn ?? null }),
    );
    if (!result.ok) return result.response;
    const secret: SecretResult = { intent: "issue", name: result.value.key.name, secret: result.value.secret, prefix: result.value.key.prefix };
    return data({ ...submission.reply({ resetForm: true }), secret }, noStore);
  }
  if (input.intent === "rotate") {
    const result = await withFormErrors(args.context, submission, () => rotateKey(access, organizationId, input.keyId));
    if (!result.ok) return result.response;
    const secret: SecretResult = { intent: "rotate", name: result.value.key.name, secret: result.value.secret, prefix: result.value.key.prefix };
    return data({ ...submission.reply({ resetForm: true }), secret }, noStore);
  }
  const result = await withFormErrors(args.context, submission, () => revokeKey(access, organizationId, input.keyId));
  if (!result.ok) return result.response;
  return data({ ...submission.reply({ resetForm: true }), revoked: result.value.name }, noStore);
}

function useDates() {
  const { i18n } = useTranslation();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeZone: "UTC" });
  const dateTime = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return { date: (iso: string) => date.format(new Date(iso)), dateTime: (iso: string) => `${dateTime.format(new Date(iso))} UTC` };
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const PAGE_PATH = "/dashboard/organization-settings/api-keys";
const scopeKey = (scope: string) => `scopes.${scope.replace(":", "_")}`;

export default function ApiKeysPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("apiKeys");
  const result = actionData as (SubmissionResult<string[]> & { secret?: SecretResult; revoked?: string }) | undefined;
  const formErrors = result?.error?.[""] ?? undefined;
  const wasIssue = (result?.initialValue as { intent?: unknown } | null | undefined)?.intent === "issue";
  const secret = result?.secret;
  const revoked = result?.revoked;
  return (
    <div className="space-y-6">
      <PageHeader title={t("title")} description={t("description", { organization: loaderData.organizationName })} />
      {secret ? <SecretPanel result={secret} /> : null}
      {revoked ? <Alert tone="success">{t("revoke.done", { name: revoked })}</Alert> : null}
      {formErrors && !wasIssue ? <FormErrors errors={formErrors} /> : null}
      {loaderData.confirm ? <ConfirmPanel confirm={loaderData.confirm} /> : null}
      <KeyList keys={loaderData.keys} unrevoked={loaderData.unrevoked} />
      <IssueForm lastResult={wasIssue || secret?.intent === "issue" ? result : undefined} limitReached={loaderData.unrevoked >= MAX_UNREVOKED_KEYS} />
    </div>
  );
}

function SecretPanel({ result }: { result: SecretResult }) {
  const { t } = useTranslation("apiKeys");
  const hydrated = useHydrated();
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = () => {
    navigator.clipboard.writeText(result.secret).then(
      () => setCopyState("copied"),
      () => setCopyState("failed"),
    );
  };
  return (
    <Card title={t(result.intent === "issue" ? "secret.issuedHeading" : "secret.rotatedHeading", { name: result.name })}>
      <div className="space-y-4" data-testid="secret-panel">
        <Alert tone="warning">
          {t("secret.warning")}
          {result.intent === "rotate" ? ` ${t("secret.rotatedWarning")}` : ""}
        </Alert>
        <div>
          <label htmlFor="issued-secret" className="block text-sm font-medium text-slate-800">
            {t("secret.label")}
          </label>
          <div className="mt-1.5 flex flex-wrap items-center gap-2">
            <input
              id="issued-secret"
              readOnly
              value={result.secret}
              onFocus={(event) => event.currentTarget.select()}
              className="block min-w-0 flex-1 rounded-md border-0 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-inset ring-slate-300"
              autoComplete="off"
              spellCheck={false}
            />
            {hydrated ? (
              <Button type="button" variant="secondary" onClick={copy}>
                {copyState === "copied" ? t("secret.copied") : t("secret.copy")}
              </Button>
            ) : null}
          </div>
          {copyState === "failed" ? <p className="mt-1 text-sm text-red-600">{t("secret.copyFailed")}</p> : null}
        </div>
        <Link to={PAGE_PATH} replace className="inline-flex text-sm font-semibold text-brand-700 hover:underline">
          {t("secret.done")}
        </Link>
      </div>
    </Card>
  );
}

function stateTone(state: ApiKeyView["state"]) {
  return state === "active" ? "green" : state === "expired" ? "amber" : "slate";
}

function KeyList({ keys, unrevoked }: { keys: ApiKeyView[]; unrevoked: number }) {
  const { t } = useTranslation("apiKeys");
  const dates = useDates();
  return (
    <Card title={t("list.heading")} description={t("list.count", { count: unrevoked, limit: MAX_UNREVOKED_KEYS })}>
      {keys.length === 0 ? (
        <p className="text-sm text-slate-500">{t("list.empty")}</p>
      ) : (
        <div className="-mx-5 overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead>
              <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                <th scope="col" className="px-5 py-2">{t("list.name")}</th>
                <th scope="col" className="px-5 py-2">{t("list.prefix")}</th>
                <th scope="col" className="px-5 py-2">{t("list.scopes")}</th>
                <th scope="col" className="px-5 py-2">{t("list.created")}</th>
                <th scope="col" className="px-5 py-2">{t("list.createdBy")}</th>
                <th scope="col" className="px-5 py-2">{t("list.expires")}</th>
                <th scope="col" className="px-5 py-2">{t("list.lastUsed")}</th>
                <th scope="col" className="px-5 py-2">{t("list.state")}</th>
                <th scope="col" className="px-5 py-2"><span className="sr-only">{t("list.actions")}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <td className="px-5 py-3 font-medium text-slate-900 break-all">{key.name}</td>
                  <td className="whitespace-nowrap px-5 py-3 font-mono text-slate-600">{key.prefix}…</td>
                  <td className="px-5 py-3">
                    <ul className="flex flex-wrap gap-1">
                      {key.scopes.map((scope) => (
                        <li key={scope}>
                          <Badge tone="brand">
                            <span title={scope}>{t(scopeKey(scope))}</span>
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="whitespace-nowrap px-5 py-3 text-slate-600">{dates.date(key.createdAt)}</td>
                  <td className="whitespace-nowrap px-5 py-3 text-slate-600">
                    {key.createdBy && !key.createdBy.deleted ? key.createdBy.name : <em>{t("list.deletedUser")}</em>}
                  </td>
                  <td className="whitespace-nowrap px-5 py-3 text-slate-600">{key.expiresAt ? dates.date(key.expiresAt) : t("list.noExpiry")}</td>
                  <td className="whitespace-nowrap px-5 py-3 text-slate-600">{key.lastUsedAt ? dates.dateTime(key.lastUsedAt) : t("list.never")}</td>
                  <td className="whitespace-nowrap px-5 py-3">
                    <Badge tone={stateTone(key.state)}>{t(`states.${key.state}`)}</Badge>
                  </td>
                  <td className="whitespace-nowrap px-5 py-3 text-right">
                    <div className="flex justify-end gap-2">
                      {key.state === "active" ? <ConfirmTrigger intent="rotate" apiKey={key} /> : null}
                      {key.state !== "revoked" ? <ConfirmTrigger intent="revoke" apiKey={key} /> : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** The confirmation form itself, used by the no-JS confirm view and by the dialog. */
function ConfirmForm({ intent, apiKey, cancel }: { intent: "rotate" | "revoke"; apiKey: ApiKeyView; cancel: ReactNode }) {
  const { t } = useTranslation("apiKeys");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <Form method="post" action={PAGE_PATH} className="space-y-4" replace>
      <p className="text-sm text-slate-700">{t(`${intent}.body`)}</p>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={busy}>
          {t(`${intent}.confirm`)}
        </Button>
        {cancel}
      </div>
    </Form>
  );
}

function ConfirmTrigger({ intent, apiKey }: { intent: "rotate" | "revoke"; apiKey: ApiKeyView }) {
  const { t } = useTranslation("apiKeys");
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  // Close once the confirmed submission has gone through.
  useEffect(() => {
    if (navigation.state === "idle") setOpen(false);
  }, [navigation.state]);
  const href = `?confirm=${intent}&key=${encodeURIComponent(apiKey.id)}`;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Link
        to={href}
        preventScrollReset
        aria-label={`${t(`${intent}.button`)}: ${apiKey.name}`}
        onClick={(event) => {
          // With JavaScript the dialog confirms; without it, the link opens the confirm view.
          event.preventDefault();
          setOpen(true);
        }}
        className={
          intent === "revoke"
            ? "rounded-md px-2.5 py-1.5 text-sm font-semibold text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50"
            : "rounded-md px-2.5 py-1.5 text-sm font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
        }
      >
        {t(`${intent}.button`)}
      </Link>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 bg-slate-900/40" />
        <Dialog.Content className="fixed left-1/2 top-1/2 w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl">
          <Dialog.Title className="text-base font-semibold text-slate-900">{t(`${intent}.heading`, { name: apiKey.name })}</Dialog.Title>
          <Dialog.Description className="sr-only">{t(`${intent}.body`)}</Dialog.Description>
          <div className="mt-4">
            <ConfirmForm
              intent={intent}
              apiKey={apiKey}
              cancel={
                <Dialog.Close asChild>
                  <Button type="button" variant="secondary">
                    {t("cancel")}
                  </Button>
                </Dialog.Close>
              }
            />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ConfirmPanel({ confirm }: { confirm: { intent: "rotate" | "revoke"; key: ApiKeyView | null } }) {
  const { t } = useTranslation("apiKeys");
  if (!confirm.key) return <Alert tone="error">{t("confirmMissing")}</Alert>;
  return (
    <Card title={t(`${confirm.intent}.heading`, { name: confirm.key.name })}>
      <ConfirmForm
        intent={confirm.intent}
        apiKey={confirm.key}
        cancel={
          <Link to={PAGE_PATH} replace className="inline-flex items-center rounded-md px-3.5 py-2 text-sm font-semibold text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50">
            {t("cancel")}
          </Link>
        }
      />
    </Card>
  );
}

function ScopeChoices({ name, errors, selected }: { name: string; errors?: string[]; selected: string[] }) {
  const { t } = useTranslation("apiKeys");
  const error = useFieldError(errors);
  return (
    <fieldset aria-describedby={error ? "scopes-error" : "scopes-hint"}>
      <legend className="block text-sm font-medium text-slate-800">{t("issue.scopes")}</legend>
      <p id="scopes-hint" className="text-sm text-slate-500">
        {t("issue.scopesHint")}
      </p>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex items-center gap-2 text-sm text-slate-800">
            <input type="checkbox" name={name} value={scope} defaultChecked={selected.includes(scope)} className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600" />
            <span>{t(scopeKey(scope))}</span>
            <code className="text-xs text-slate-500">{scope}</code>
          </label>
        ))}
      </div>
      {error ? (
        <p id="scopes-error" className="mt-1 text-sm text-red-600" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function IssueForm({ lastResult, limitReached }: { lastResult: SubmissionResult<string[]> | undefined; limitReached: boolean }) {
  const { t } = useTranslation("apiKeys");
  const [form, fields] = useForm<z.input<typeof issueKeyFormSchema>, z.output<typeof issueKeyFormSchema>, string[]>({
    id: "issue-key",
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: issueKeyFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Card title={t("issue.heading")}>
      {limitReached ? (
        <div className="mb-4">
          <Alert tone="info">{t("issue.limitReached", { limit: MAX_UNREVOKED_KEYS })}</Alert>
        </div>
      ) : null}
      <Form method="post" action={PAGE_PATH} className="max-w-xl space-y-5" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="intent" value="issue" />
        <Field
          label={t("issue.name")}
          hint={t("issue.nameHint", { max: KEY_NAME_MAX })}
          errors={fields.name.errors}
          errorParams={{ max: KEY_NAME_MAX }}
          {...getInputProps(fields.name, { type: "text" })}
          maxLength={KEY_NAME_MAX}
          autoComplete="off"
        />
        <ScopeChoices
          key={fields.scopes.key}
          name={fields.scopes.name}
          errors={Object.values(fields.scopes.allErrors).flat()}
          selected={[fields.scopes.initialValue ?? []].flat().filter((v): v is string => typeof v === "string")}
        />
        <Field
          label={t("issue.expiresOn")}
          hint={t("issue.expiresOnHint")}
          errors={fields.expiresOn.errors}
          {...getInputProps(fields.expiresOn, { type: "date" })}
        />
        <Button type="submit">{t("issue.submit")}</Button>
      </Form>
    </Card>
  );
}

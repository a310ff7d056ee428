// The keys page: list, issue, rotate, revoke. Thin: the rules live in app/api-keys/. Works
// without JavaScript: rotate and revoke confirm on a `?confirm=rotate&key=<id>` view; with
// JavaScript the same confirmation opens in a dialog. A secret appears only in the action's
// answer (never in the loader), so it is shown exactly once.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, data, useNavigation } from "react-router";
import { z } from "zod";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/dashboard.organization-settings.api-keys";
import { issueKey, listKeys, revokeKey, rotateKey, type ApiKeyView } from "~/api-keys/api-keys.server";
import { API_KEY_SCOPES, KEY_NAME_MAX, MAX_UNREVOKED_KEYS, issueKeyFormSchema, keyActionFormSchema } from "~/api-keys/scopes";
import { requireActiveOrgPermission } from "~/auth/guards.server";
import { ErrorPanel } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { Alert, Badge, Button, ButtonLink, Card, Field, PageHeader, buttonClass, cx, useFieldError } from "~/components/ui";
import { getInstance } from "~/i18n/i18next.server";
import { invalidForm, parseForm, withFormErrors } from "~/lib/forms.server";

const actionSchema = z.discriminatedUnion("intent", [issueKeyFormSchema, keyActionFormSchema]);

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
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
  // A revoked key cannot be rotated or revoked again: its confirm link says it is gone.
  const confirmKey = keys.find((k) => k.id === url.searchParams.get("key") && k.state !== "revoked");
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
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: "short", timeZone: "UTC" });
  return {
    date: (iso: string) => date.format(new Date(iso)),
    dateTime: (iso: string) => `${dateTime.format(new Date(iso))} UTC`,
    time: (iso: string) => `${time.format(new Date(iso))} UTC`,
  };
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
  const hydrated = useHydrated();
  const result = actionData as (SubmissionResult<string[]> & { secret?: SecretResult; revoked?: string }) | undefined;
  const formErrors = result?.error?.[""] ?? undefined;
  const wasIssue = (result?.initialValue as { intent?: unknown } | null | undefined)?.intent === "issue";
  const secret = result?.secret;
  const revoked = result?.revoked;
  const limitReached = loaderData.unrevoked >= MAX_UNREVOKED_KEYS;
  return (
    // data-hydrated: the browser tests wait for it before using the dialogs and the copy button.
    <div className="space-y-6" data-testid="api-keys-page" data-hydrated={hydrated ? "true" : undefined}>
      <PageHeader
        title={t("title")}
        description={t("description", { organization: loaderData.organizationName })}
        actions={
          loaderData.keys.length > 0 && !limitReached ? (
            <a href="#issue-key-card" className={buttonClass("primary", "w-full sm:w-auto")}>
              {t("issue.heading")}
            </a>
          ) : null
        }
      />
      {secret ? <SecretPanel result={secret} /> : null}
      {revoked ? <Alert tone="success">{t("revoke.done", { name: revoked })}</Alert> : null}
      {formErrors && !wasIssue ? <FormErrors errors={formErrors} /> : null}
      {loaderData.confirm ? <ConfirmPanel confirm={loaderData.confirm} /> : null}
      <KeyList keys={loaderData.keys} unrevoked={loaderData.unrevoked} />
      <IssueForm lastResult={wasIssue || secret?.intent === "issue" ? result : undefined} limitReached={limitReached} />
    </div>
  );
}

function SecretPanel({ result }: { result: SecretResult }) {
  const { t } = useTranslation("apiKeys");
  const hydrated = useHydrated();
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const panel = useRef<HTMLDivElement>(null);
  // The panel replaces the form the user was looking at: bring it into view and announce it.
  useEffect(() => {
    panel.current?.focus({ preventScroll: true });
    panel.current?.scrollIntoView({ block: "nearest" });
  }, [result.secret]);
  const copy = () => {
    navigator.clipboard.writeText(result.secret).then(
      () => setCopyState("copied"),
      () => setCopyState("failed"),
    );
  };
  return (
    <div ref={panel} tabIndex={-1} className="scroll-mt-24 rounded-xl focus:outline-none" data-testid="secret-panel">
      <Card tone="warning" title={t(result.intent === "issue" ? "secret.issuedHeading" : "secret.rotatedHeading", { name: result.name })}>
        <div className="space-y-4">
          <Alert tone="warning">
            <strong className="font-semibold">{t("secret.warning")}</strong>
            {result.intent === "rotate" ? ` ${t("secret.rotatedWarning")}` : ""}
          </Alert>
          <div>
            <label htmlFor="issued-secret" className="block text-sm font-medium text-slate-800">
              {t("secret.label")}
            </label>
            <div className="mt-1.5 flex flex-col gap-2 md:flex-row md:items-stretch">
              {/* A textarea so phones show the whole secret on two lines instead of scrolling it. */}
              <textarea
                id="issued-secret"
                readOnly
                rows={1}
                value={result.secret}
                onFocus={(event) => event.currentTarget.select()}
                className="block h-16 w-full min-w-0 resize-none md:flex-1 overflow-hidden rounded-md border-0 bg-slate-50 px-3 py-2 font-mono text-sm leading-5 break-all text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-600 md:h-9"
                autoComplete="off"
                spellCheck={false}
                aria-describedby="issued-secret-prefix"
              />
              {hydrated ? (
                <Button type="button" variant="secondary" onClick={copy} className="shrink-0 md:min-w-28" aria-live="polite">
                  <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true" className="h-4 w-4">
                    {copyState === "copied" ? (
                      <path d="m4.5 10.5 3.5 3.5 7.5-8" strokeLinecap="round" strokeLinejoin="round" />
                    ) : (
                      <>
                        <rect x="7" y="7" width="9.5" height="9.5" rx="1.5" />
                        <path d="M13 7V4.5A1.5 1.5 0 0 0 11.5 3h-7A1.5 1.5 0 0 0 3 4.5v7A1.5 1.5 0 0 0 4.5 13H7" />
                      </>
                    )}
                  </svg>
                  {copyState === "copied" ? t("secret.copied") : t("secret.copy")}
                </Button>
              ) : null}
            </div>
            <p id="issued-secret-prefix" className="mt-1.5 text-sm text-slate-500">
              {t("secret.prefixHint", { prefix: result.prefix })}
            </p>
            {copyState === "failed" ? (
              <p className="mt-1 text-sm text-red-700" role="alert">
                {t("secret.copyFailed")}
              </p>
            ) : null}
          </div>
          <div className="border-t border-slate-100 pt-4">
            <ButtonLink to={PAGE_PATH} replace variant="secondary" className="w-full sm:w-auto">
              {t("secret.done")}
            </ButtonLink>
          </div>
        </div>
      </Card>
    </div>
  );
}

function stateTone(state: ApiKeyView["state"]) {
  return state === "active" ? "green" : state === "expired" ? "amber" : "slate";
}

/** A cell of the key list: a table cell from `md` up, a labelled item of a card on phones. */
function KeyCell({ label, children, className }: { label?: string; children: ReactNode; className?: string }) {
  return (
    <td className={cx("min-w-0 md:table-cell md:px-3 md:py-3 md:align-top md:first:pl-5", className)}>
      {label ? <span className="mb-0.5 block text-xs font-medium text-slate-500 md:hidden">{label}</span> : null}
      {children}
    </td>
  );
}

function KeyList({ keys, unrevoked }: { keys: ApiKeyView[]; unrevoked: number }) {
  const { t } = useTranslation("apiKeys");
  const dates = useDates();
  const headers = ["name", "scopes", "created", "expires", "lastUsed", "state"] as const;
  return (
    <Card title={t("list.heading")} description={t("list.count", { count: unrevoked, limit: MAX_UNREVOKED_KEYS })}>
      {keys.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center" data-testid="api-keys-empty">
          <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.4" aria-hidden="true" className="h-8 w-8 text-slate-400">
            <path d="M11.8 8.2a3.3 3.3 0 1 1-1.03-2.4M11.8 8.2 17 13.4V16h-2.6v-1.6h-1.6v-1.6h-1.6l-1.65-1.65" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <p className="text-sm font-medium text-slate-900">{t("list.emptyTitle")}</p>
          <p className="max-w-sm text-sm text-slate-500">{t("list.empty")}</p>
          <a href="#issue-key-card" className={buttonClass("primary", "mt-2")}>
            {t("issue.heading")}
          </a>
        </div>
      ) : (
        <div className="md:-mx-5 md:-my-5 md:overflow-x-auto">
          <table className="block w-full text-sm md:table md:min-w-full md:divide-y md:divide-slate-200">
            <thead className="hidden md:table-header-group">
              <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                {headers.map((header) => (
                  <th key={header} scope="col" className="px-3 py-2.5 first:pl-5">
                    {t(`list.${header}`)}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2.5 pr-5">
                  <span className="sr-only">{t("list.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody className="flex flex-col gap-3 md:table-row-group md:divide-y md:divide-slate-100">
              {keys.map((key) => {
                const revoked = key.state === "revoked";
                return (
                  <tr
                    key={key.id}
                    data-key-id={key.id}
                    className={cx(
                      "grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg p-4 ring-1 ring-slate-200 md:table-row md:rounded-none md:p-0 md:ring-0",
                      revoked && "bg-slate-50/70",
                    )}
                  >
                    <KeyCell className="col-span-2 md:min-w-40">
                      <span className={cx("block font-medium break-words [overflow-wrap:anywhere]", revoked ? "text-slate-500" : "text-slate-900")} data-testid="key-name">
                        {key.name}
                      </span>
                      <span className="mt-0.5 block font-mono text-xs text-slate-500" data-testid="key-prefix" title={t("list.prefix")}>
                        {key.prefix}…
                      </span>
                    </KeyCell>
                    <KeyCell label={t("list.scopes")} className="col-span-2">
                      <ul className="flex flex-wrap gap-1" data-testid="key-scopes">
                        {key.scopes.map((scope) => (
                          <li key={scope}>
                            <Badge tone={revoked ? "slate" : "brand"}>
                              <span title={scope} className="whitespace-nowrap">
                                {t(scopeKey(scope))}
                              </span>
                            </Badge>
                          </li>
                        ))}
                      </ul>
                    </KeyCell>
                    <KeyCell label={t("list.created")} className="text-slate-600">
                      <span className="block whitespace-nowrap">{dates.date(key.createdAt)}</span>
                      <span className="block text-xs text-slate-500">
                        {key.createdBy && !key.createdBy.deleted ? t("list.createdByName", { name: key.createdBy.name }) : <em>{t("list.deletedUser")}</em>}
                      </span>
                    </KeyCell>
                    <KeyCell label={t("list.expires")} className="text-slate-600 md:whitespace-nowrap">
                      {key.expiresAt ? dates.date(key.expiresAt) : <span className="text-slate-400">{t("list.noExpiry")}</span>}
                    </KeyCell>
                    <KeyCell label={t("list.lastUsed")} className="text-slate-600">
                      {key.lastUsedAt ? (
                        <time dateTime={key.lastUsedAt} title={dates.dateTime(key.lastUsedAt)}>
                          <span className="whitespace-nowrap">{dates.date(key.lastUsedAt)}</span>{" "}
                          <span className="whitespace-nowrap text-slate-500 md:block md:text-xs">{dates.time(key.lastUsedAt)}</span>
                        </time>
                      ) : (
                        <span className="text-slate-400">{t("list.never")}</span>
                      )}
                    </KeyCell>
                    <KeyCell label={t("list.state")}>
                      <span data-testid="key-state">
                        <Badge tone={stateTone(key.state)}>{t(`states.${key.state}`)}</Badge>
                      </span>
                    </KeyCell>
                    <td className={cx("col-span-2 md:table-cell md:w-px md:py-3 md:pl-3 md:pr-5 md:align-top", revoked ? "hidden" : "border-t border-slate-100 pt-3 md:border-0")}>
                      {revoked ? null : (
                        <div className="flex gap-2 md:flex-col md:items-stretch md:whitespace-nowrap">
                          {key.state === "active" ? <ConfirmTrigger intent="rotate" apiKey={key} /> : null}
                          <ConfirmTrigger intent="revoke" apiKey={key} />
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

/** The confirmation form itself, used by the no-JS confirm view and by the dialog. */
function ConfirmForm({ intent, apiKey, cancel, body }: { intent: "rotate" | "revoke"; apiKey: ApiKeyView; cancel: ReactNode; body: ReactNode }) {
  const { t } = useTranslation("apiKeys");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <Form method="post" action={PAGE_PATH} className="space-y-4" replace>
      {body}
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm text-slate-600">
        <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{apiKey.name}</span>
        <code className="font-mono text-xs text-slate-500">{apiKey.prefix}…</code>
      </p>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" variant={intent === "revoke" ? "danger" : "primary"} disabled={busy}>
          {t(`${intent}.confirm`)}
        </Button>
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
        className={buttonClass(intent === "revoke" ? "dangerOutline" : "secondary", "flex-1 md:flex-none", "sm")}
      >
        {t(`${intent}.button`)}
      </Link>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl ring-1 ring-slate-900/5 focus:outline-none">
          <Dialog.Title className="pr-6 text-base font-semibold text-slate-900 [overflow-wrap:anywhere]">{t(`${intent}.heading`, { name: apiKey.name })}</Dialog.Title>
          <div className="mt-3">
            <ConfirmForm
              intent={intent}
              apiKey={apiKey}
              body={<Dialog.Description className="text-sm text-slate-700">{t(`${intent}.body`)}</Dialog.Description>}
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
    <div data-testid="confirm-panel">
      <Card tone={confirm.intent === "revoke" ? "danger" : "warning"} title={t(`${confirm.intent}.heading`, { name: confirm.key.name })}>
        <ConfirmForm
          intent={confirm.intent}
          apiKey={confirm.key}
          body={<p className="text-sm text-slate-700">{t(`${confirm.intent}.body`)}</p>}
          cancel={
            <ButtonLink to={PAGE_PATH} replace variant="secondary">
              {t("cancel")}
            </ButtonLink>
          }
        />
      </Card>
    </div>
  );
}

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
            <input type="checkbox" name={name} value={scope} defaultChecked={selected.includes(scope)} className="mt-0.5 h-4 w-4 shrink-0 accent-brand-600 focus:outline-none" />
            <span className="min-w-0">
              <span className="block font-medium text-slate-900">{t(scopeKey(scope))}</span>
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
    <Card id="issue-key-card" className="scroll-mt-24" title={t("issue.heading")} description={t("issue.description")}>
      {limitReached ? (
        <div className="mb-4">
          <Alert tone="info">{t("issue.limitReached", { limit: MAX_UNREVOKED_KEYS })}</Alert>
        </div>
      ) : null}
      <Form method="post" action={PAGE_PATH} className="max-w-2xl space-y-6" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <input type="hidden" name="intent" value="issue" />
        <div className="max-w-md">
          <Field
            label={t("issue.name")}
            hint={t("issue.nameHint", { max: KEY_NAME_MAX })}
            errors={fields.name.errors}
            errorParams={{ max: KEY_NAME_MAX }}
            {...getInputProps(fields.name, { type: "text" })}
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
    </Card>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

import { useTranslation } from "react-i18next";
import { Form, data } from "react-router";
import { z } from "zod";
import { titleMeta } from "~/components/page-title";
import type { Route } from "./+types/dashboard.account.security";
import { ErrorPanel } from "~/components/error-page";
import { requireUser } from "~/auth/guards.server";
import { totpCodeSchema } from "~/auth/schemas";
import {
  beginEnrollment,
  pendingEnrollment,
  confirmEnrollment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  unusedRecoveryCodeCount,
  type PendingEnrollment,
} from "~/auth/two-factor.server";
import { FormErrors } from "~/components/form-errors";
import { Alert, Badge, Button, ButtonLink, Card, Field, PageHeader, useFieldError } from "~/components/ui";
import { getInstance } from "~/i18n/i18next.server";
import { parseForm } from "~/lib/forms.server";
import { domainErrorMessage, isDomainError } from "~/lib/domain-error";
import { translatorFor } from "~/lib/http-errors.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  return {
    title: getInstance(args.context).t("twoFactor:title"),
    enabled: auth.user.twoFactorEnabled,
    recoveryCodesLeft: auth.user.twoFactorEnabled ? await unusedRecoveryCodeCount(auth.user.id) : 0,
  };
}

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("begin") }),
  z.object({ intent: z.literal("confirm"), code: totpCodeSchema }),
  z.object({ intent: z.literal("disable"), code: totpCodeSchema }),
  z.object({ intent: z.literal("regenerate"), code: totpCodeSchema }),
]);

type ActionResult = {
  intent?: string;
  enrollment?: PendingEnrollment;
  recoveryCodes?: string[];
  disabled?: boolean;
  formErrors?: string[];
  fieldErrors?: string[];
};

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  const { submission, formData } = await parseForm(args.request, schema);
  const intent = String(formData.get("intent") ?? "");
  // A failed confirmation shows the same QR code again.
  const enrollmentIfPending = async () => (intent === "confirm" && !auth.user.twoFactorEnabled ? pendingEnrollment(auth) : undefined);
  if (submission.status !== "success") {
    const fieldErrors = submission.reply().error?.code ?? ["badRequest"];
    return data<ActionResult>({ intent, enrollment: await enrollmentIfPending(), fieldErrors }, { status: 400 });
  }
  const value = submission.value;
  try {
    switch (value.intent) {
      case "begin":
        return { intent: "confirm", enrollment: await beginEnrollment(auth) } satisfies ActionResult;
      case "confirm":
        return { intent: "done", recoveryCodes: await confirmEnrollment(auth, value.code) } satisfies ActionResult;
      case "disable":
        await disableTwoFactor(auth, value.code);
        return { intent: "disabled", disabled: true } satisfies ActionResult;
      case "regenerate":
        return { intent: "done", recoveryCodes: await regenerateRecoveryCodes(auth, value.code) } satisfies ActionResult;
    }
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const message = domainErrorMessage(error, translatorFor(args.context));
    return data<ActionResult>({ intent, enrollment: await enrollmentIfPending(), formErrors: [message] }, { status: error.status });
  }
}

function CodeForm({ intent, label, submit, variant = "primary", errors }: { intent: string; label: string; submit: string; variant?: "primary" | "danger"; errors?: string[] }) {
  return (
    <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <input type="hidden" name="intent" value={intent} />
      <div className="w-full sm:w-60">
        <Field label={label} name="code" id={`code-${intent}`} inputMode="numeric" autoComplete="one-time-code" maxLength={8} required errors={errors} />
      </div>
      <Button type="submit" variant={variant}>
        {submit}
      </Button>
    </Form>
  );
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("twoFactor");
  const result = (actionData ?? {}) as ActionResult;
  const fieldError = useFieldError(result.fieldErrors);
  return (
    <div className="max-w-2xl space-y-6">
      <PageHeader title={t("title")} description={t("description")} />
      <Card
        title={t("heading")}
        description={t("headingHint")}
        actions={loaderData.enabled ? <Badge tone="green">{t("badgeOn")}</Badge> : <Badge tone="amber">{t("badgeOff")}</Badge>}
      >
        <div className="space-y-5">
          {result.disabled ? <Alert tone="success">{t("disabled")}</Alert> : null}
          <FormErrors errors={result.formErrors} />
          {fieldError ? <Alert tone="error">{fieldError}</Alert> : null}
          {result.recoveryCodes ? (
            <div className="space-y-3" data-testid="recovery-codes">
              <Alert tone="success">{t("enabled")}</Alert>
              <h3 className="pt-1 font-semibold text-slate-900">{t("recoveryTitle")}</h3>
              <p className="text-sm text-slate-600">{t("recoveryIntro")}</p>
              <ul className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg bg-slate-900 px-5 py-4 font-mono text-sm tracking-wide text-slate-100 select-all min-[420px]:grid-cols-2">
                {result.recoveryCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
              <div className="flex flex-col gap-3 sm:flex-row">
                <a
                  href={`data:text/plain;charset=utf-8,${encodeURIComponent(`${t("recoveryFileHeader")}\n\n${result.recoveryCodes.join("\n")}\n`)}`}
                  download="keyledger-recovery-codes.txt"
                  className="inline-flex min-h-9 items-center justify-center gap-2 rounded-md bg-white px-3.5 py-2 text-sm font-semibold text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
                >
                  {t("recoveryDownload")}
                </a>
                <ButtonLink to="/dashboard/account/security" reloadDocument>
                  {t("recoveryDone")}
                </ButtonLink>
              </div>
            </div>
          ) : result.enrollment && !loaderData.enabled ? (
            <div className="space-y-4">
              <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-600 marker:font-semibold marker:text-slate-400">
                <li>{t("scan")}</li>
                <li>{t("enterCode")}</li>
              </ol>
              <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
                <div
                  role="img"
                  aria-label={t("qrAlt")}
                  className="qr-code mx-auto h-48 w-48 shrink-0 rounded-lg bg-white p-2 ring-1 ring-slate-200 sm:mx-0"
                  dangerouslySetInnerHTML={{ __html: result.enrollment.qrSvg }}
                />
                <div className="min-w-0 space-y-1.5">
                  <p className="text-sm font-medium text-slate-800">{t("manualKey")}</p>
                  <code className="block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm leading-6 tracking-wider break-words text-slate-900 select-all" data-testid="totp-manual-key">
                    {result.enrollment.manualKey}
                  </code>
                  <p className="text-xs text-slate-500">{t("manualKeyHint")}</p>
                </div>
              </div>
              <CodeForm intent="confirm" label={t("code")} submit={t("confirm")} />
            </div>
          ) : loaderData.enabled ? (
            <div className="space-y-6">
              <Alert tone="success">{t("statusOn")}</Alert>
              <p className="text-sm text-slate-600">{t("recoveryRemaining", { count: loaderData.recoveryCodesLeft })}</p>
              <div className="space-y-2 border-t border-slate-100 pt-5">
                <h3 className="text-sm font-semibold text-slate-900">{t("regenerate")}</h3>
                <p className="text-sm text-slate-500">{t("regenerateHint")}</p>
                <CodeForm intent="regenerate" label={t("code")} submit={t("regenerate")} variant="primary" />
              </div>
              <div className="space-y-2 border-t border-slate-100 pt-5">
                <h3 className="text-sm font-semibold text-red-700">{t("disable")}</h3>
                <p className="text-sm text-slate-500">{t("disableHint")}</p>
                <CodeForm intent="disable" label={t("code")} submit={t("disable")} variant="danger" />
              </div>
            </div>
          ) : (
            <div className="space-y-4">
              <p className="text-sm text-slate-600">{t("statusOff")}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="begin" />
                <Button type="submit">{t("start")}</Button>
              </Form>
            </div>
          )}
        </div>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

// Two-factor settings: enrol (QR code and manual key, then a first code), see the recovery codes
// once, regenerate them, or turn two-factor off. Every step is a plain form post.
import type { SubmissionResult } from "@conform-to/react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, href } from "react-router";
import { FormErrors } from "~/components/form-errors";
import { Alert, Badge, Button, ButtonLink, Card, Field, PageHeader, useFieldError } from "~/components/ui";
import type { PendingEnrollment } from "~/auth/two-factor.server";

/** Every answer of the security page's action. */
export interface TwoFactorActionData {
  /** The step to show next ("confirm", "done", "disabled"), or the one that failed. */
  intent: string | null;
  enrollment?: PendingEnrollment;
  recoveryCodes?: string[];
  disabled?: boolean;
  /** The form's errors: `code` for a malformed code, "" for a refusal (e.g. a wrong code). */
  reply?: SubmissionResult<string[]>;
}

function CodeForm({
  intent,
  label,
  submit,
  variant = "primary",
  errors,
}: {
  intent: string;
  label: string;
  submit: string;
  variant?: "primary" | "danger";
  errors?: string[];
}) {
  return (
    <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <input type="hidden" name="intent" value={intent} />
      <div className="w-full sm:w-60">
        <Field
          label={label}
          name="code"
          id={`code-${intent}`}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          required
          errors={errors}
        />
      </div>
      <Button type="submit" variant={variant}>
        {submit}
      </Button>
    </Form>
  );
}

export function TwoFactorSettings({
  loaderData,
  actionData,
}: {
  loaderData: { enabled: boolean; recoveryCodesLeft: number };
  actionData: TwoFactorActionData | undefined;
}) {
  const { t } = useTranslation("twoFactor");
  const result = actionData ?? { intent: null };
  const errors = result.reply?.error;
  // A malformed code is the code field's error; any other malformed input is a bad request.
  const fieldError = useFieldError(errors ? (errors.code ?? (errors[""] ? undefined : ["badRequest"])) : undefined);
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
          <FormErrors errors={errors?.[""] ?? undefined} />
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
                <ButtonLink to={href("/dashboard/account/security")} reloadDocument>
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
                  className="qr-code mx-auto h-48 w-48 shrink-0 rounded-lg bg-[#fff] p-2 ring-1 ring-slate-200 sm:mx-0"
                  dangerouslySetInnerHTML={{ __html: result.enrollment.qrSvg }}
                />
                <div className="min-w-0 space-y-1.5">
                  <p className="text-sm font-medium text-slate-800">{t("manualKey")}</p>
                  <code
                    className="block rounded-md bg-slate-100 px-3 py-2 font-mono text-sm leading-6 tracking-wider break-words text-slate-900 select-all"
                    data-testid="totp-manual-key"
                  >
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

// The support console's plan change: the form (plan, reason, ticket) and the confirmation shown
// before anything changes. Both are plain forms posting to the page, so it works without
// JavaScript; the confirmation takes the focus when it appears so a keyboard or screen reader
// user lands on the question.
import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { Form, href, Link } from "react-router";
import { FormErrors } from "~/components/form-errors";
import { validateOnSubmit } from "~/components/form-validation";
import { Button, Card, Field, TextareaField, useFieldError } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { supportSetPlanSchema } from "~/support/schemas";

export interface PlanChoice {
  id: string;
  name: string;
  auditExport: boolean;
}

export interface PlanChangeConfirmation {
  planId: string;
  from: string;
  to: string;
  reason: string;
  ticket: string | null;
}

export function SetPlanForm({
  organizationId,
  currentPlanId,
  plans,
  lastResult,
}: {
  organizationId: string;
  currentPlanId: string;
  plans: PlanChoice[];
  lastResult: SubmissionResult | null;
}) {
  const { t } = useTranslation("admin");
  const [form, fields] = useForm({ lastResult, ...validateOnSubmit(supportSetPlanSchema) });
  const planError = useFieldError(fields.planId.errors);
  const planErrorId = `${fields.planId.id}-error`;
  return (
    <Card>
      <Form method="post" className="space-y-5" {...getFormProps(form)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <fieldset aria-describedby={planError ? planErrorId : undefined} className="space-y-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">{t("setPlan.plan")}</legend>
          {plans.map((plan) => {
            const current = plan.id === currentPlanId;
            return (
              <label
                key={plan.id}
                className="flex items-start gap-3 rounded-md p-2 text-sm ring-1 ring-slate-200 has-[:checked]:ring-2 has-[:checked]:ring-brand-600"
              >
                <input
                  type="radio"
                  name={fields.planId.name}
                  value={plan.id}
                  disabled={current}
                  defaultChecked={fields.planId.initialValue === plan.id}
                  aria-invalid={planError ? true : undefined}
                  className="mt-0.5 size-4 accent-brand-600"
                />
                <span>
                  <span className="font-medium text-slate-900">{plan.name}</span>
                  {current ? <span className="text-slate-500"> ({t("setPlan.current")})</span> : null}
                  <span className="block text-slate-600">{plan.auditExport ? t("setPlan.auditExport") : t("setPlan.noAuditExport")}</span>
                </span>
              </label>
            );
          })}
          {planError ? (
            <p id={planErrorId} className="text-sm text-red-700" role="alert">
              {planError}
            </p>
          ) : null}
        </fieldset>
        <TextareaField
          label={t("setPlan.reason")}
          hint={t("setPlan.reasonHint")}
          errors={fields.reason.errors}
          errorParams={{ min: 10, max: 500 }}
          rows={3}
          required
          {...getTextareaProps(fields.reason)}
        />
        <Field
          label={t("setPlan.ticket")}
          hint={t("setPlan.ticketHint")}
          errors={fields.ticket.errors}
          errorParams={{ max: 100 }}
          {...getInputProps(fields.ticket, { type: "text" })}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="review">
            {t("setPlan.review")}
          </Button>
          <Link
            to={href("/admin/organizations/:organizationId", { organizationId })}
            className="inline-flex items-center px-2 text-sm font-medium text-slate-600 hover:text-slate-900"
          >
            {t("setPlan.cancel")}
          </Link>
        </div>
      </Form>
    </Card>
  );
}

export function SetPlanConfirm({ organizationName, confirm }: { organizationName: string; confirm: PlanChangeConfirmation }) {
  const { t } = useTranslation("admin");
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const hidden = { planId: confirm.planId, reason: confirm.reason, ticket: confirm.ticket ?? "" };
  return (
    <Card tone="warning">
      <Form method="post" className="space-y-4" aria-labelledby="set-plan-confirm-title">
        <h2 id="set-plan-confirm-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none">
          {t("setPlan.confirmTitle", { organization: organizationName })}
        </h2>
        <p className="text-sm text-slate-700">{t("setPlan.confirmText", { from: confirm.from, to: confirm.to })}</p>
        <dl className="grid gap-2 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
          <dt className="font-medium text-slate-600">{t("setPlan.confirmReason")}</dt>
          <dd className="break-words text-slate-900">{confirm.reason}</dd>
          {confirm.ticket ? (
            <>
              <dt className="font-medium text-slate-600">{t("setPlan.confirmTicket")}</dt>
              <dd className="break-words text-slate-900">{confirm.ticket}</dd>
            </>
          ) : null}
        </dl>
        <p className="text-sm text-slate-600">{t("setPlan.confirmRecorded")}</p>
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="apply">
            {t("setPlan.confirm")}
          </Button>
          <Button type="submit" name="intent" value="edit" variant="secondary">
            {t("setPlan.back")}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

// The billing page's parts: the current plan and state (with what the state means), what each
// plan includes (read from the plan catalog), and the owners' changes behind a confirmation: a
// dialog with JavaScript, the same form on a `?confirm=…` view of the page without it.
import type { ReactNode } from "react";
import { Form, href, useNavigation } from "react-router";
import { ConfirmDialogTrigger } from "~/components/confirm-dialog";
import { Alert, Badge, Button, ButtonLink, Card, buttonClass } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import type { BillingState } from "~/generated/prisma/enums";
import type { PlanFlags } from "~/plans/catalog";
import type { BillingIntent } from "~/billing/schemas";

export const BILLING_PAGE_PATH = href("/dashboard/organization-settings/billing");

export interface PlanOffer {
  id: string;
  name: string;
  features: PlanFlags;
}

/** A change an owner is asked to confirm. */
export type BillingConfirmation = { intent: "checkout"; plan: PlanOffer; from: string } | { intent: "cancel" | "resume"; plan: string };

const STATE_TONES: Record<BillingState, "green" | "amber" | "red" | "slate"> = {
  active: "green",
  past_due: "amber",
  past_due_blocked: "red",
  canceled: "slate",
};

export function BillingSummary({ planName, state }: { planName: string; state: BillingState }) {
  const { t } = useTranslation("billing");
  return (
    <Card title={t("current.title")}>
      <dl className="grid gap-4 sm:grid-cols-2" data-testid="billing-summary" data-state={state}>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("current.plan")}</dt>
          <dd className="mt-1 text-lg font-semibold text-slate-900">{planName}</dd>
        </div>
        <div>
          <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t("current.state")}</dt>
          <dd className="mt-1">
            <Badge tone={STATE_TONES[state]}>{t(`states.${state}.label`)}</Badge>
          </dd>
        </div>
      </dl>
      <div className="mt-4">
        <Alert tone={state === "active" ? "info" : "warning"}>{t(`states.${state}.explanation`)}</Alert>
      </div>
    </Card>
  );
}

function confirmHref(confirm: BillingConfirmation): string {
  return confirm.intent === "checkout" ? `?confirm=checkout&plan=${encodeURIComponent(confirm.plan.id)}` : `?confirm=${confirm.intent}`;
}

function useConfirmText(confirm: BillingConfirmation) {
  const { t } = useTranslation("billing");
  if (confirm.intent === "checkout") {
    const values = { plan: confirm.plan.name, from: confirm.from };
    return {
      button: t("plans.switchTo", values),
      heading: t("checkout.title", values),
      body: t("checkout.body", values),
      confirm: t("checkout.confirm"),
      keep: t("checkout.keep"),
    };
  }
  const values = { plan: confirm.plan };
  return {
    button: t(`${confirm.intent}.button`),
    heading: t(`${confirm.intent}.heading`, values),
    body: t(`${confirm.intent}.body`, values),
    confirm: t(`${confirm.intent}.confirm`),
    keep: t(`${confirm.intent}.keep`),
  };
}

function ConfirmForm({ confirm, body, cancel }: { confirm: BillingConfirmation; body: ReactNode; cancel: ReactNode }) {
  const text = useConfirmText(confirm);
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action={BILLING_PAGE_PATH} className="space-y-4" replace>
      {body}
      <input type="hidden" name="intent" value={confirm.intent} />
      {confirm.intent === "checkout" ? <input type="hidden" name="planId" value={confirm.plan.id} /> : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" variant={confirm.intent === "cancel" ? "danger" : "primary"} disabled={busy}>
          {text.confirm}
        </Button>
      </div>
    </Form>
  );
}

export function ConfirmTrigger({ confirm, variant }: { confirm: BillingConfirmation; variant: "primary" | "secondary" | "dangerOutline" }) {
  const text = useConfirmText(confirm);
  return (
    <ConfirmDialogTrigger
      href={confirmHref(confirm)}
      label={text.button}
      className={buttonClass(variant, undefined, "sm")}
      title={text.heading}
      description={text.body}
      cancelLabel={text.keep}
      renderForm={({ description, cancel }) => <ConfirmForm confirm={confirm} body={description} cancel={cancel} />}
    />
  );
}

/** The no-JavaScript confirm view; `null` when the link asks for a change that is not available. */
export function BillingConfirmPanel({ confirm }: { confirm: BillingConfirmation | null }) {
  const { t } = useTranslation("billing");
  if (!confirm) return <Alert tone="error">{t("confirmMissing")}</Alert>;
  return <ConfirmPanelFor confirm={confirm} />;
}

function ConfirmPanelFor({ confirm }: { confirm: BillingConfirmation }) {
  const text = useConfirmText(confirm);
  return (
    <div data-testid="confirm-panel">
      <Card tone={confirm.intent === "cancel" ? "danger" : "default"} title={text.heading}>
        <ConfirmForm
          confirm={confirm}
          body={<p className="text-sm text-slate-700">{text.body}</p>}
          cancel={
            <ButtonLink to={BILLING_PAGE_PATH} replace variant="secondary">
              {text.keep}
            </ButtonLink>
          }
        />
      </Card>
    </div>
  );
}

/** Cancel (a paid plan that is not canceled) or resume (a canceled one), for owners. */
export function SubscriptionCard({ state, planName, paid }: { state: BillingState; planName: string; paid: boolean }) {
  const { t } = useTranslation("billing");
  if (!paid) return null;
  const canceled = state === "canceled";
  return (
    <Card title={t("cancel.title")} description={canceled ? t("resume.description", { plan: planName }) : t("cancel.description")}>
      <ConfirmTrigger
        confirm={{ intent: canceled ? "resume" : "cancel", plan: planName }}
        variant={canceled ? "primary" : "dangerOutline"}
      />
    </Card>
  );
}

export function DoneMessage({ done, planName }: { done: BillingIntent; planName: string }) {
  const { t } = useTranslation("billing");
  return <Alert tone="success">{t(`done.${done}`, { plan: planName })}</Alert>;
}

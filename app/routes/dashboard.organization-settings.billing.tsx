// Billing: the plan, the billing state and what each plan includes (owners and admins); owners
// change the plan, cancel and resume. Thin: the rules live in app/billing/, the page's parts in
// app/billing/ui/. Works without JavaScript: changes confirm on a `?confirm=…` view (with
// JavaScript in a dialog), post here, and come back with a redirect (`?done=…` says what happened),
// so reloading the page never repeats a change.
import { data, redirect } from "react-router";
import type { Route } from "./+types/dashboard.organization-settings.billing";
import { accessFor } from "~/access/organization-access.server";
import { cancelSubscription, checkout, getBilling, ownerChangeRefusal, resumeSubscription } from "~/billing/billing.server";
import { isPaidPlan, PLAN_IDS, planFeatures, planName } from "~/plans/catalog";
import { billingSetup } from "~/billing/provider.server";
import { billingActionSchema, billingPageQuerySchema } from "~/billing/schemas";
import {
  BILLING_PAGE_PATH,
  BillingConfirmPanel,
  BillingSummary,
  DoneMessage,
  SubscriptionCard,
  type BillingConfirmation,
} from "~/billing/ui/billing-page";
import { PlanList } from "~/billing/ui/plan-cards";
import { ErrorPanel } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { organizationTitleMeta } from "~/components/page-title";
import { Alert, PageHeader, useFieldError } from "~/components/ui";
import { useHydrated } from "~/components/use-hydrated";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "billing:view");
  const billing = getBilling(access);
  const canChange = accessFor(access, "billing:manage") !== null;
  const configured = billingSetup().provider !== null;
  const plans = PLAN_IDS.map((id) => ({ id, name: planName(id), features: planFeatures(id) }));
  const query = billingPageQuerySchema.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const currentName = planName(billing.planId);
  let confirm: BillingConfirmation | null | undefined;
  if (query.confirm && canChange && configured) {
    // Offered only when the change would be taken (the same rule the change itself applies).
    const applies = ownerChangeRefusal(billing, query.confirm, query.plan) === null;
    const target = plans.find((plan) => plan.id === query.plan);
    if (!applies) confirm = null;
    else if (query.confirm !== "checkout") confirm = { intent: query.confirm, plan: currentName };
    else confirm = target ? { intent: "checkout", plan: target, from: currentName } : null;
  }
  return {
    title: translatorFor(args.context)("billing:title"),
    organizationName: access.organization.name,
    billing,
    planName: currentName,
    plans,
    canChange: canChange && configured,
    readOnly: !canChange,
    configured,
    confirm,
    done: query.done ?? null,
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args, "billing:manage");
  const { submission } = await parseForm(args, billingActionSchema);
  if (submission.status !== "success") return data({ reply: submission.reply() }, { status: 400 });
  const input = submission.value;
  const result = await withFormErrors(args.context, submission, () => {
    if (input.intent === "checkout") return checkout(access, input.planId);
    return input.intent === "cancel" ? cancelSubscription(access) : resumeSubscription(access);
  });
  if (!result.ok) return data({ reply: result.reply }, result.init);
  throw redirect(`${BILLING_PAGE_PATH}?done=${input.intent}`);
}

export default function BillingPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("billing");
  const hydrated = useHydrated();
  const { billing } = loaderData;
  const formErrors = actionData?.reply.error?.[""] ?? undefined;
  // A plan id no form of ours sends (a hand-made request): the schema's key, translated.
  const planError = useFieldError(actionData?.reply.error?.planId ?? actionData?.reply.error?.intent ?? undefined);
  return (
    // data-hydrated: the browser tests wait for it before using the dialogs.
    <div className="space-y-6" data-testid="billing-page" data-hydrated={hydrated ? "true" : undefined}>
      <PageHeader title={t("title")} description={t("description", { name: loaderData.organizationName })} />
      {loaderData.done ? <DoneMessage done={loaderData.done} planName={loaderData.planName} /> : null}
      {formErrors ? <FormErrors errors={formErrors} /> : null}
      {planError ? <FormErrors errors={[planError]} /> : null}
      {loaderData.readOnly ? <Alert tone="info">{t("readOnly")}</Alert> : null}
      {!loaderData.readOnly && !loaderData.configured ? <Alert tone="warning">{t("notConfigured")}</Alert> : null}
      {loaderData.confirm !== undefined ? <BillingConfirmPanel confirm={loaderData.confirm} /> : null}
      <BillingSummary planName={loaderData.planName} state={billing.state} />
      <PlanList
        plans={loaderData.plans}
        currentPlanId={billing.planId}
        currentPlanName={loaderData.planName}
        canChange={loaderData.canChange}
      />
      {loaderData.canChange ? (
        <SubscriptionCard state={billing.state} planName={loaderData.planName} paid={isPaidPlan(billing.planId)} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

// Changing an organization's plan from the support console: choose the plan, say why, confirm.
// Thin: the rule is billing's plan override (shared with `npm run admin:set-plan`), the record
// app/support/support-plan.server.ts, the form app/support/ui/set-plan-form.tsx. Works without
// JavaScript: "review" answers with the confirmation, "apply" changes and redirects back to the
// organization (so reloading never repeats the change), "edit" returns to the filled-in form.
import type { SubmissionResult } from "@conform-to/react";
import { data, href, redirect } from "react-router";
import type { Route } from "./+types/admin.organizations.$organizationId.plan";
import { ErrorPanel } from "~/components/error-page";
import { titleMeta } from "~/components/page-title";
import { PageHeader } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { PLAN_IDS, planHas, planName } from "~/plans/catalog";
import { supportSetPlanSchema } from "~/support/schemas";
import { setPlanAsSupport } from "~/support/support-plan.server";
import { SetPlanConfirm, SetPlanForm, type PlanChangeConfirmation } from "~/support/ui/set-plan-form";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireSupportTarget } from "~/web/guards.server";
import { BackToOrganization } from "~/support/ui/back-to-organization";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const { organization } = await requireSupportTarget(args, args.params.organizationId);
  return {
    title: `${translatorFor(args.context)("admin:setPlan.title")} · ${organization.name}`,
    organization: { id: organization.id, name: organization.name, planId: organization.planId, planName: planName(organization.planId) },
    plans: PLAN_IDS.map((id) => ({ id, name: planName(id), auditExport: planHas(id, "auditExport") })),
  };
}

type ActionResult = { reply: SubmissionResult; confirm: null } | { reply: null; confirm: PlanChangeConfirmation };

export async function action(args: Route.ActionArgs) {
  const target = await requireSupportTarget(args, args.params.organizationId);
  const { submission } = await parseForm(args, supportSetPlanSchema);
  if (submission.status !== "success") return data<ActionResult>({ reply: submission.reply(), confirm: null }, { status: 400 });
  const { intent, ...input } = submission.value;
  if (intent === "edit") return data<ActionResult>({ reply: submission.reply(), confirm: null });
  const current = target.organization.planId;
  if (intent === "review") {
    if (input.planId === current) {
      const message = translatorFor(args.context)("errors:billing.alreadyOnPlan", { plan: planName(current) });
      return data<ActionResult>({ reply: submission.reply({ formErrors: [message] }), confirm: null }, { status: 409 });
    }
    const confirm = { ...input, ticket: input.ticket ?? null, from: planName(current), to: planName(input.planId) };
    return data<ActionResult>({ reply: null, confirm });
  }
  const result = await withFormErrors(args.context, submission, () => setPlanAsSupport(target, input));
  if (!result.ok) return data<ActionResult>({ reply: result.reply, confirm: null }, result.init);
  throw redirect(`${href("/admin/organizations/:organizationId", { organizationId: target.organization.id })}?planChanged=1`);
}

export default function SetPlanPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { organization, plans } = loaderData;
  return (
    <div className="max-w-2xl space-y-6">
      <BackToOrganization organization={organization} />
      <PageHeader
        title={t("setPlan.title")}
        description={t("setPlan.intro", { organization: organization.name, plan: organization.planName })}
      />
      {actionData?.confirm ? (
        <SetPlanConfirm organizationName={organization.name} confirm={actionData.confirm} />
      ) : (
        <SetPlanForm
          organizationId={organization.id}
          currentPlanId={organization.planId}
          plans={plans}
          lastResult={actionData?.reply ?? null}
        />
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

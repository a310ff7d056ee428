// Setting an organization's plan from the support console (docs/decisions/0039-housekeeping-plans-and-migrations.md):
// billing's plan override, the one `npm run admin:set-plan` uses, with the platform admin's reason
// and ticket written to the support records in the change's own transaction. The organization's
// audit log records the change by the system actor "support", never the reason.
import type { SupportTarget } from "~/access/organization-access.server";
import { setOrganizationPlan, SUPPORT_ACTOR, type PlanOverrideResult } from "~/billing/plan-override.server";
import { DomainError } from "~/lib/domain-error";
import { planName } from "~/plans/catalog";
import { planChangeSubject } from "./plan-change-subject";
import type { SupportSetPlanInput } from "./schemas";
import { recordRow } from "./support.server";

export async function setPlanAsSupport(target: SupportTarget, input: Omit<SupportSetPlanInput, "intent">): Promise<PlanOverrideResult> {
  const { admin, organization } = target;
  const result = await setOrganizationPlan(organization.id, input.planId, {
    actor: SUPPORT_ACTOR,
    alsoRecord: async (tx, change) => {
      await tx.supportAction.create({
        data: recordRow(
          admin.user.id,
          organization.id,
          { reason: input.reason, ticket: input.ticket ?? null },
          { action: "billing.plan_set", subject: planChangeSubject(change.from, change.to) },
        ),
        select: { id: true },
      });
    },
  });
  // Someone else set it meanwhile (the form does not offer the current plan): say so, record nothing.
  if (result.outcome === "unchanged") throw new DomainError("CONFLICT", "billing.alreadyOnPlan", { params: { plan: planName(result.to) } });
  return result;
}

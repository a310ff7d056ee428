// Setting an organization's plan from the support console: the same domain function as
// `npm run admin:set-plan`, with the admin's reason in the support records, in one transaction.
import { describe, expect, it } from "vitest";
import { prisma } from "~/db.server";
import { authorizePlatformAdmin, findSupportTarget } from "~/access/organization-access.server";
import { DomainError } from "~/lib/domain-error";
import { setPlanAsSupport } from "~/support/support-plan.server";
import { listSupportRecords } from "~/support/support.server";
import { supportSetPlanSchema } from "~/support/schemas";
import { createOrganizationWith, createUser, signedInPlatformAdmin } from "../factories";

async function setUp(planId = "free") {
  const owner = await createUser();
  const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }], { planId });
  const { auth, user } = await signedInPlatformAdmin();
  const admin = authorizePlatformAdmin(auth, { fresh: true });
  return { organization, admin, user, target: await findSupportTarget(admin, organization.id) };
}

const events = (organizationId: string) =>
  prisma.auditEvent.findMany({ where: { organizationId }, select: { action: true, actorKind: true, actorId: true, details: true } });

describe("support: set an organization's plan", () => {
  it("changes the plan, records it in the audit log (system actor 'support', no reason) and in the support records", async () => {
    const { organization, admin, user, target } = await setUp("team");
    const result = await setPlanAsSupport(target, {
      planId: "enterprise",
      reason: "Self-hosted customer bought Enterprise",
      ticket: "ZD-4711",
    });
    expect(result).toMatchObject({ outcome: "changed", from: "team", to: "enterprise", state: "active" });
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: organization.id } })).planId).toBe("enterprise");
    const recorded = await events(organization.id);
    expect(recorded).toEqual([
      { action: "billing.plan_changed", actorKind: "system", actorId: "support", details: { plan: { from: "team", to: "enterprise" } } },
    ]);
    expect(JSON.stringify(recorded)).not.toContain("Self-hosted");
    const { records } = await listSupportRecords(admin, { organizationId: organization.id });
    expect(records).toMatchObject([
      {
        action: "billing.plan_set",
        admin: { id: user.id },
        reason: "Self-hosted customer bought Enterprise",
        ticket: "ZD-4711",
        subject: "team→enterprise",
      },
    ]);
  });

  it("refuses the current plan (409) and an unknown one, changing and recording nothing", async () => {
    const { organization, admin, target } = await setUp("team");
    await expect(setPlanAsSupport(target, { planId: "team", reason: "Nothing to change here", ticket: undefined })).rejects.toMatchObject({
      code: "CONFLICT",
      messageKey: "billing.alreadyOnPlan",
    });
    await expect(
      setPlanAsSupport(target, { planId: "platinum", reason: "Nothing to change here", ticket: undefined }),
    ).rejects.toBeInstanceOf(DomainError);
    expect(await events(organization.id)).toEqual([]);
    expect((await listSupportRecords(admin, { organizationId: organization.id })).records).toEqual([]);
  });

  it("asks for a plan of the catalog and a reason of at least 10 characters", () => {
    const parse = (input: Record<string, unknown>) => supportSetPlanSchema.safeParse(input);
    expect(parse({ intent: "review", planId: "enterprise", reason: "A good reason" }).success).toBe(true);
    const issues = (input: Record<string, unknown>) => parse(input).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ intent: "review", planId: "platinum", reason: "short" })).toEqual([
      ["planId", "billing.unknownPlan"],
      ["reason", "field.tooShort"],
    ]);
    expect(issues({ intent: "apply", reason: "A good reason" })).toEqual([["planId", "supportPlan.choosePlan"]]);
  });
});

import { useTranslation } from "react-i18next";
import { Form, Link, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/dashboard._index";
import { requireUser } from "~/auth/guards.server";
import { PLANS, isPlanId } from "~/billing/plans";
import { Badge, Button, Card, PageHeader } from "~/components/ui";
import { prisma } from "~/db.server";
import { getInstance } from "~/i18n/i18next.server";
import { orHttpError } from "~/lib/http-errors.server";
import { DomainError } from "~/lib/domain-error";
import { listOrganizationsOf, switchActiveOrganization } from "~/organizations/organizations.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title }];
}

export async function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  const organizations = await listOrganizationsOf(auth.user.id);
  const activeId = auth.session.activeOrganizationId;
  const active = activeId
    ? await prisma.organization.findUnique({ where: { id: activeId }, select: { id: true, name: true, slug: true, planId: true } })
    : null;
  return {
    title: getInstance(args.context).t("organizations:dashboard.title"),
    user: { name: auth.user.name, twoFactorEnabled: auth.user.twoFactorEnabled },
    organizations,
    active: active ? { ...active, planName: isPlanId(active.planId) ? PLANS[active.planId].name : active.planId, role: organizations.find((o) => o.id === active.id)?.role } : null,
  };
}

const switchSchema = z.object({ intent: z.literal("switch"), organizationId: z.string().max(64) });

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  const parsed = switchSchema.safeParse(Object.fromEntries(await args.request.formData().catch(() => new FormData())));
  await orHttpError(args.context, async () => {
    if (!parsed.success) throw new DomainError("BAD_REQUEST", "badRequest");
    await switchActiveOrganization(auth, parsed.data.organizationId);
  });
  return redirect("/dashboard");
}

export default function DashboardIndex({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const { active, organizations, user } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title={t("dashboard.welcome", { name: user.name })} />
      {active ? (
        <Card title={t("dashboard.activeOrganization")}>
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div>
              <p className="text-lg font-semibold text-slate-900" data-testid="active-organization">
                {active.name}
              </p>
              <p className="text-sm text-slate-500">/{active.slug}</p>
            </div>
            <div className="flex flex-wrap gap-2">
              {active.role ? <Badge tone="brand">{t("dashboard.yourRole", { role: tc(`roles.${active.role}`) })}</Badge> : null}
              <Badge>{t("dashboard.plan", { plan: active.planName })}</Badge>
            </div>
          </div>
        </Card>
      ) : (
        <Card>
          <p className="text-sm text-slate-600">{t("dashboard.noOrganizations")}</p>
          <Link to="/dashboard/organizations/new" className="mt-4 inline-flex rounded-md bg-brand-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-brand-700">
            {t("dashboard.createFirst")}
          </Link>
        </Card>
      )}
      {organizations.length > 0 ? (
        <Card title={t("dashboard.yourOrganizations")}>
          <ul className="divide-y divide-slate-100">
            {organizations.map((organization) => (
              <li key={organization.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-medium text-slate-900">{organization.name}</p>
                  <p className="text-sm text-slate-500">{tc(`roles.${organization.role}`)}</p>
                </div>
                {organization.id === active?.id ? (
                  <Badge tone="green">{t("dashboard.active")}</Badge>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="switch" />
                    <input type="hidden" name="organizationId" value={organization.id} />
                    <Button type="submit" variant="secondary" aria-label={`${t("dashboard.switchTo")} ${organization.name}`}>
                      {t("dashboard.switchTo")}
                    </Button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600">{user.twoFactorEnabled ? t("dashboard.twoFactorOn") : t("dashboard.twoFactorOff")}</p>
          <Link to="/dashboard/account/security" className="text-sm font-semibold text-brand-600 hover:text-brand-700">
            {t("dashboard.manageSecurity")}
          </Link>
        </div>
      </Card>
    </div>
  );
}

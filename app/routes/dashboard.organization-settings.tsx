// Organization settings: the general settings (editable with organization:update) and the member
// list (any member). Thin: the rules live in app/organizations/.
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import type { Route } from "./+types/dashboard.organization-settings";
import { accessHas } from "~/access/organization-access.server";
import { ErrorPanel } from "~/components/error-page";
import { titleMeta } from "~/components/page-title";
import { PageHeader } from "~/components/ui";
import { getInstance } from "~/i18n/i18next.server";
import { listMembers, organizationSettings, updateOrganizationSettings } from "~/organizations/organizations.server";
import { organizationSettingsSchema } from "~/organizations/schemas";
import { MembersTable } from "~/organizations/ui/members-table";
import { SettingsForm } from "~/organizations/ui/settings-form";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args);
  const members = await listMembers(access);
  return {
    title: getInstance(args.context).t("organizations:settings.title"),
    settings: organizationSettings(access),
    canEdit: accessHas(access, "organization:update"),
    members: members.map((m) => ({
      id: m.user.id,
      name: m.user.name,
      email: m.user.email,
      role: m.role,
      since: m.createdAt.toISOString(),
      twoFactor: m.user.twoFactorEnabledAt !== null,
    })),
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args, "organization:update");
  const { submission } = await parseForm(args.request, organizationSettingsSchema);
  if (submission.status !== "success") return data({ reply: submission.reply(), saved: false }, { status: 400 });
  const result = await withFormErrors(args.context, submission, () => updateOrganizationSettings(access, submission.value));
  if (!result.ok) return data({ reply: result.reply, saved: false }, result.init);
  return { reply: submission.reply(), saved: true };
}

export default function OrganizationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("organizations");
  const { settings } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title={t("settings.title")} description={t("settings.description", { name: settings.name })} />
      <SettingsForm settings={settings} canEdit={loaderData.canEdit} lastResult={actionData?.reply} saved={actionData?.saved ?? false} />
      <MembersTable members={loaderData.members} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

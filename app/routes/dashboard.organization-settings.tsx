// Organization settings: the general settings (editable with organization:update), a link to the
// members page, and deleting the organization (owners). Thin: the rules live in app/organizations/.
import { useTranslation } from "~/i18n/use-translation";
import { data, href, redirect } from "react-router";
import type { Route } from "./+types/dashboard.organization-settings";
import { accessFor } from "~/access/organization-access.server";
import { isFresh } from "~/auth/session.server";
import { ErrorPanel } from "~/components/error-page";
import { organizationTitleMeta } from "~/components/page-title";
import { ButtonLink, Card, PageHeader } from "~/components/ui";
import { translatorFor } from "~/i18n/i18next.server";
import { signInHref } from "~/lib/safe-redirect";
import { storeLogo } from "~/organizations/logos.server";
import { listMembers } from "~/organizations/members.server";
import { deleteOrganization, organizationSettings, updateOrganizationSettings } from "~/organizations/organizations.server";
import { settingsActionSchema } from "~/organizations/schemas";
import { DeleteOrganizationCard } from "~/organizations/ui/delete-organization";
import { MEMBERS_PAGE_PATH } from "~/organizations/ui/members-page";
import { SettingsForm } from "~/organizations/ui/settings-form";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization, requireUser } from "~/web/guards.server";

const SETTINGS_PATH = href("/dashboard/organization-settings");

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args);
  const members = await listMembers(access);
  return {
    title: translatorFor(args.context)("organizations:settings.title"),
    settings: organizationSettings(access),
    canEdit: accessFor(access, "organization:update") !== null,
    canDelete: accessFor(access, "organization:delete") !== null,
    fresh: isFresh(requireUser(args)),
    ownTwoFactor: access.user.twoFactorEnabled,
    memberCount: members.length,
  };
}

export async function action(args: Route.ActionArgs) {
  const { submission } = await parseForm(args, settingsActionSchema);
  const intent = submission.payload.intent === "delete" ? "delete" : "settings";
  if (submission.status !== "success") return data({ reply: submission.reply(), intent, saved: false }, { status: 400 });
  const input = submission.value;
  if (input.intent === "delete") {
    const access = await requireActiveOrganization(args, "organization:delete");
    const result = await withFormErrors(args.context, submission, () => deleteOrganization(access, requireUser(args), input.confirmName));
    if (!result.ok) return data({ reply: result.reply, intent, saved: false }, result.init);
    throw redirect(href("/dashboard"));
  }
  const access = await requireActiveOrganization(args, "organization:update");
  const result = await withFormErrors(args.context, submission, async () => {
    const upload = input.logo && input.logo.size > 0 ? await storeLogo(access, new Uint8Array(await input.logo.arrayBuffer())) : null;
    const logoId = upload ? upload.id : input.removeLogo ? null : undefined;
    return updateOrganizationSettings(access, { name: input.name, slug: input.slug, requireTwoFactor: input.requireTwoFactor, logoId });
  });
  if (!result.ok) return data({ reply: result.reply, intent, saved: false }, result.init);
  return { reply: submission.reply(), intent, saved: true };
}

export default function OrganizationSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("organizations");
  const { settings } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeader title={t("settings.title")} description={t("settings.description", { name: settings.name })} />
      <SettingsForm
        settings={settings}
        canEdit={loaderData.canEdit}
        ownTwoFactor={loaderData.ownTwoFactor}
        lastResult={actionData?.intent === "settings" ? actionData.reply : undefined}
        saved={actionData?.saved ?? false}
      />
      <Card title={t("settings.members")} description={t("settings.memberCount", { count: loaderData.memberCount })}>
        <ButtonLink to={MEMBERS_PAGE_PATH} variant="secondary">
          {t("settings.manageMembers")}
        </ButtonLink>
      </Card>
      {loaderData.canDelete ? (
        <DeleteOrganizationCard
          name={settings.name}
          fresh={loaderData.fresh}
          signInAgainHref={signInHref(SETTINGS_PATH)}
          lastResult={actionData?.intent === "delete" ? actionData.reply : undefined}
        />
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

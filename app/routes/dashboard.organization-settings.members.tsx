// Members and invitations: invite, resend, cancel, change a role, remove, leave. Thin: the rules
// live in app/organizations/, the page's parts in app/organizations/ui/. Works without JavaScript:
// destructive actions confirm on a `?confirm=…` view; with JavaScript in a dialog.
import { useTranslation } from "~/i18n/use-translation";
import { data, href, redirect } from "react-router";
import type { Route } from "./+types/dashboard.organization-settings.members";
import { accessFor } from "~/access/organization-access.server";
import { ErrorPanel } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { organizationTitleMeta } from "~/components/page-title";
import { Alert, Card, PageHeader } from "~/components/ui";
import { useHydrated } from "~/components/use-hydrated";
import { translatorFor } from "~/i18n/i18next.server";
import { cancelInvitation, inviteMember, listPendingInvitations, resendInvitation } from "~/organizations/invitations.server";
import { assignableRoles } from "~/organizations/member-rules";
import { leaveOrganization, listMembers, removeMember, updateMemberRole } from "~/organizations/members.server";
import { memberActionSchema } from "~/organizations/schemas";
import { InvitationsTable } from "~/organizations/ui/invitations-table";
import { InviteForm } from "~/organizations/ui/invite-form";
import { ConfirmPanel, ConfirmTrigger, type MemberConfirmation } from "~/organizations/ui/member-confirmation";
import type { MemberActionData, MemberActionOutcome } from "~/organizations/ui/members-page";
import { MembersTable } from "~/organizations/ui/members-table";
import { mailDeliveryFor } from "~/web/mail-delivery.server";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args);
  const manager = accessFor(access, "member:manage");
  const [members, invitations] = await Promise.all([listMembers(access), manager ? listPendingInvitations(manager) : []]);
  const params = new URL(args.request.url).searchParams;
  const asked = params.get("confirm");
  let confirm: MemberConfirmation | null | undefined;
  if (asked === "leave") confirm = { intent: "leave", organizationName: access.organization.name };
  if (asked === "remove" && manager) {
    const member = members.find((m) => m.userId === params.get("user") && m.userId !== access.user.id);
    confirm = member ? { intent: "remove", userId: member.userId, name: member.name } : null;
  }
  if (asked === "cancel" && manager) {
    const invitation = invitations.find((i) => i.id === params.get("invitation"));
    confirm = invitation ? { intent: "cancel", invitationId: invitation.id, email: invitation.email } : null;
  }
  return {
    title: translatorFor(args.context)("organizations:members.title"),
    organizationName: access.organization.name,
    currentUserId: access.user.id,
    managerRole: manager ? access.role : null,
    assignableRoles: assignableRoles(access.role),
    members,
    invitations,
    confirm,
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args);
  const { submission, formData } = await parseForm(args, memberActionSchema);
  const intent = typeof formData.get("intent") === "string" ? String(formData.get("intent")) : null;
  if (submission.status !== "success") return data<MemberActionData>({ reply: submission.reply(), intent, outcome: null }, { status: 400 });
  const input = submission.value;
  if (input.intent === "leave") {
    const left = await withFormErrors(args.context, submission, () => leaveOrganization(access));
    if (!left.ok) return data<MemberActionData>({ reply: left.reply, intent, outcome: null }, left.init);
    throw redirect(href("/dashboard"));
  }
  const manager = await requireActiveOrganization(args, "member:manage");
  const result = await withFormErrors(args.context, submission, async (): Promise<MemberActionOutcome> => {
    switch (input.intent) {
      case "invite": {
        const { invitation, created } = await inviteMember(manager, input, mailDeliveryFor(args));
        return { intent: "invite", email: invitation.email, created };
      }
      case "resend":
        return { intent: "resend", email: (await resendInvitation(manager, input.invitationId, mailDeliveryFor(args))).email };
      case "cancel":
        return { intent: "cancel", email: (await cancelInvitation(manager, input.invitationId)).email };
      case "role": {
        const member = await updateMemberRole(manager, input.userId, input.role);
        return { intent: "role", name: member.name, role: member.role, changed: true };
      }
      case "remove":
        return { intent: "remove", name: (await removeMember(manager, input.userId)).name };
    }
  });
  if (!result.ok) return data<MemberActionData>({ reply: result.reply, intent, outcome: null }, result.init);
  return data<MemberActionData>({ reply: submission.reply({ resetForm: input.intent === "invite" }), intent, outcome: result.value });
}

function OutcomeMessage({ outcome }: { outcome: MemberActionOutcome }) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  if (outcome.intent === "invite")
    return <Alert tone="success">{t(outcome.created ? "invite.sent" : "invite.alreadyPending", { email: outcome.email })}</Alert>;
  if (outcome.intent === "role")
    return <Alert tone="success">{t("members.roleChanged", { name: outcome.name, role: tc(`roles.${outcome.role}`) })}</Alert>;
  if (outcome.intent === "remove") return <Alert tone="success">{t("members.removed", { name: outcome.name })}</Alert>;
  return (
    <Alert tone="success">{t(outcome.intent === "resend" ? "invitations.resent" : "invitations.canceled", { email: outcome.email })}</Alert>
  );
}

export default function MembersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("organizations");
  const { managerRole } = loaderData;
  const hydrated = useHydrated();
  const formErrors = actionData?.intent !== "invite" ? (actionData?.reply.error?.[""] ?? undefined) : undefined;
  return (
    // data-hydrated: the browser tests wait for it before using the dialogs.
    <div className="space-y-6" data-testid="members-page" data-hydrated={hydrated ? "true" : undefined}>
      <PageHeader title={t("members.title")} description={t("members.description", { name: loaderData.organizationName })} />
      {actionData?.outcome ? <OutcomeMessage outcome={actionData.outcome} /> : null}
      {formErrors ? <FormErrors errors={formErrors} /> : null}
      {loaderData.confirm !== undefined ? <ConfirmPanel confirm={loaderData.confirm} /> : null}
      {managerRole ? (
        <InviteForm roles={loaderData.assignableRoles} lastResult={actionData?.intent === "invite" ? actionData.reply : undefined} />
      ) : null}
      <MembersTable
        members={loaderData.members}
        currentUserId={loaderData.currentUserId}
        managerRole={managerRole}
        assignableRoles={loaderData.assignableRoles}
      />
      {managerRole ? <InvitationsTable invitations={loaderData.invitations} /> : null}
      <Card title={t("members.leave.title")} description={t("members.leave.description")}>
        <ConfirmTrigger confirm={{ intent: "leave", organizationName: loaderData.organizationName }} />
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

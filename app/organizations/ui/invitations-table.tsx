// Pending invitations (expired ones marked): resend the mail, or cancel (confirmed first).
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { Badge, Button, Card } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import type { InvitationView } from "~/organizations/invitations.server";
import { ConfirmTrigger } from "./member-confirmation";
import { MEMBERS_PAGE_PATH } from "./members-page";

export function InvitationsTable({ invitations }: { invitations: InvitationView[] }) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const formats = useFormats();
  const busy = useNavigation().state !== "idle";
  return (
    <Card title={t("invitations.title")} description={t("invitations.count", { count: invitations.length })}>
      {invitations.length === 0 ? (
        <p className="text-sm text-slate-600">{t("invitations.none")}</p>
      ) : (
        <ul className="-mx-5 -my-5 divide-y divide-slate-100" data-testid="invitations-list">
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              className="flex flex-col gap-3 px-5 py-3 sm:flex-row sm:items-center"
              data-testid={`invitation-${invitation.email}`}
            >
              <div className="min-w-0 flex-1 text-sm">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{invitation.email}</span>
                  <Badge tone={invitation.role === "member" ? "slate" : "brand"}>{tc(`roles.${invitation.role}`)}</Badge>
                  {invitation.status === "expired" ? <Badge tone="amber">{t("invitations.expired")}</Badge> : null}
                </p>
                <p className="text-slate-500">
                  {invitation.invitedBy ? t("invitations.invitedBy", { name: invitation.invitedBy.name }) : null}{" "}
                  {invitation.status === "expired"
                    ? t("invitations.expiredOn", { date: formats.date(invitation.expiresAt) })
                    : t("invitations.expiresOn", { date: formats.date(invitation.expiresAt) })}{" "}
                  {invitation.lastSentAt
                    ? t("invitations.lastSent", { date: formats.dateTime(invitation.lastSentAt) })
                    : t("invitations.notSentYet")}
                </p>
              </div>
              {/* Each button on one line; on phones the second moves below rather than both wrapping
                  their words ("Einladung / zurückziehen"). */}
              <div className="flex flex-wrap gap-2 whitespace-nowrap">
                {invitation.status === "pending" ? (
                  <Form method="post" action={MEMBERS_PAGE_PATH} preventScrollReset>
                    <input type="hidden" name="intent" value="resend" />
                    <input type="hidden" name="invitationId" value={invitation.id} />
                    <Button
                      type="submit"
                      variant="secondary"
                      size="sm"
                      disabled={busy}
                      aria-label={`${t("invitations.resend")}: ${invitation.email}`}
                    >
                      {t("invitations.resend")}
                    </Button>
                  </Form>
                ) : null}
                <ConfirmTrigger confirm={{ intent: "cancel", invitationId: invitation.id, email: invitation.email }} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

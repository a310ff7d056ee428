// Confirming removal, leaving and canceling an invitation: a dialog with JavaScript, and the same
// form on a `?confirm=…` view of the members page without it.
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { ConfirmDialogTrigger } from "~/components/confirm-dialog";
import { Alert, Button, ButtonLink, Card, buttonClass } from "~/components/ui";
import { MEMBERS_PAGE_PATH } from "./members-page";

export type MemberConfirmation =
  | { intent: "remove"; userId: string; name: string }
  | { intent: "cancel"; invitationId: string; email: string }
  | { intent: "leave"; organizationName: string };

function confirmHref(confirm: MemberConfirmation): string {
  if (confirm.intent === "remove") return `?confirm=remove&user=${encodeURIComponent(confirm.userId)}`;
  if (confirm.intent === "cancel") return `?confirm=cancel&invitation=${encodeURIComponent(confirm.invitationId)}`;
  return "?confirm=leave";
}

function useConfirmText(confirm: MemberConfirmation) {
  const { t } = useTranslation("organizations");
  const subject = confirm.intent === "remove" ? confirm.name : confirm.intent === "cancel" ? confirm.email : confirm.organizationName;
  return {
    button: t(`members.${confirm.intent}.button`),
    heading: t(`members.${confirm.intent}.heading`, { subject }),
    body: t(`members.${confirm.intent}.body`, { subject }),
    confirm: t(`members.${confirm.intent}.confirm`),
    cancel: t(`members.${confirm.intent}.keep`),
    subject,
  };
}

function ConfirmForm({ confirm, body, cancel }: { confirm: MemberConfirmation; body: ReactNode; cancel: ReactNode }) {
  const text = useConfirmText(confirm);
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action={MEMBERS_PAGE_PATH} className="space-y-4" replace>
      {body}
      <input type="hidden" name="intent" value={confirm.intent} />
      {confirm.intent === "remove" ? <input type="hidden" name="userId" value={confirm.userId} /> : null}
      {confirm.intent === "cancel" ? <input type="hidden" name="invitationId" value={confirm.invitationId} /> : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" variant="danger" disabled={busy}>
          {text.confirm}
        </Button>
      </div>
    </Form>
  );
}

export function ConfirmTrigger({ confirm }: { confirm: MemberConfirmation }) {
  const text = useConfirmText(confirm);
  return (
    <ConfirmDialogTrigger
      href={confirmHref(confirm)}
      label={text.button}
      ariaLabel={confirm.intent === "leave" ? undefined : `${text.button}: ${text.subject}`}
      className={buttonClass("dangerOutline", undefined, "sm")}
      title={text.heading}
      description={text.body}
      cancelLabel={text.cancel}
      renderForm={({ description, cancel }) => <ConfirmForm confirm={confirm} body={description} cancel={cancel} />}
    />
  );
}

/** The no-JavaScript confirm view; `null` when the link names someone or something that is gone. */
export function ConfirmPanel({ confirm }: { confirm: MemberConfirmation | null }) {
  const { t } = useTranslation("organizations");
  if (!confirm) return <Alert tone="error">{t("members.confirmMissing")}</Alert>;
  return <ConfirmPanelFor confirm={confirm} />;
}

function ConfirmPanelFor({ confirm }: { confirm: MemberConfirmation }) {
  const text = useConfirmText(confirm);
  return (
    <div data-testid="confirm-panel">
      <Card tone="danger" title={text.heading}>
        <ConfirmForm
          confirm={confirm}
          body={<p className="text-sm text-slate-700">{text.body}</p>}
          cancel={
            <ButtonLink to={MEMBERS_PAGE_PATH} replace variant="secondary">
              {text.cancel}
            </ButtonLink>
          }
        />
      </Card>
    </div>
  );
}

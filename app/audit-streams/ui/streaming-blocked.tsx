// Why this organization cannot stream (its plan, or billing pausing paid features), and the way to
// the billing page for those who may open it, shown instead of the create form.
import { href } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { Alert, ButtonLink } from "~/components/ui";

export type StreamingBlockedNote =
  { blocker: "plan"; planName: string; streamingPlans: string[]; billingLink: boolean } | { blocker: "billing"; billingLink: boolean };

export function StreamingBlocked({ note }: { note: StreamingBlockedNote }) {
  const { t } = useTranslation("auditStreams");
  return (
    <div data-testid="streaming-blocked">
      <Alert tone="warning">
        <p>
          {note.blocker === "plan"
            ? t("blocked.plan", { plan: note.planName, plans: note.streamingPlans.join(", ") })
            : t("blocked.billing")}
        </p>
        <div className="mt-3">
          {note.billingLink ? (
            <ButtonLink to={href("/dashboard/organization-settings/billing")} variant="secondary" size="sm">
              {t("blocked.billingLink")}
            </ButtonLink>
          ) : (
            <p>{t("blocked.ownerOnly")}</p>
          )}
        </div>
      </Alert>
    </div>
  );
}

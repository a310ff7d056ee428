// What an account whose address is not verified yet sees where it would create an organization:
// why it cannot yet, and a button to have the link mailed again (rate limited per account).
import { Form, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { Alert, Button } from "~/components/ui";
import { FormErrors } from "~/components/form-errors";

export function VerifyAddressNotice({ email, resent, errors }: { email: string; resent: boolean; errors?: string[] }) {
  const { t } = useTranslation("auth");
  const busy = useNavigation().state !== "idle";
  return (
    <div className="mb-6 space-y-3 [overflow-wrap:anywhere]" data-testid="verify-address-notice">
      <Alert tone="warning">{t("verifyNotice.body", { email })}</Alert>
      {resent ? <Alert tone="success">{t("verifyNotice.resent", { email })}</Alert> : null}
      <FormErrors errors={errors} />
      <Form method="post">
        <input type="hidden" name="intent" value="resend" />
        <Button type="submit" variant="secondary" disabled={busy}>
          {t("verifyNotice.resend")}
        </Button>
      </Form>
    </div>
  );
}

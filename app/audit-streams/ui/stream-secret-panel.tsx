// A new webhook stream's signing secret, shown once (app/components/one-time-secret.tsx): only the
// create action answers it, never a loader.
import { useTranslation } from "~/i18n/use-translation";
import { OneTimeSecret } from "~/components/one-time-secret";
import { streamPagePath } from "./stream-page";

export function StreamSecretPanel({ streamId, name, secret }: { streamId: string; name: string; secret: string }) {
  const { t } = useTranslation("auditStreams");
  return (
    <OneTimeSecret
      secret={secret}
      fieldId="stream-secret"
      doneTo={streamPagePath(streamId)}
      testId="stream-secret-panel"
      text={{
        title: t("secret.heading", { name }),
        warning: <strong className="font-semibold">{t("secret.warning")}</strong>,
        label: t("secret.label"),
        copy: t("secret.copy"),
        copied: t("secret.copied"),
        copyFailed: t("secret.copyFailed"),
        done: t("secret.done"),
      }}
    />
  );
}

// The secret of a key just issued or rotated, shown once (app/components/one-time-secret.tsx).
import { useTranslation } from "~/i18n/use-translation";
import { OneTimeSecret } from "~/components/one-time-secret";
import { KEYS_PAGE_PATH, type KeyActionOutcome } from "./key-page";

export function SecretPanel({ result }: { result: Extract<KeyActionOutcome, { secret: string }> }) {
  const { t } = useTranslation("apiKeys");
  return (
    <OneTimeSecret
      secret={result.secret}
      fieldId="issued-secret"
      doneTo={KEYS_PAGE_PATH}
      testId="secret-panel"
      tall
      text={{
        title: t(result.intent === "issue" ? "secret.issuedHeading" : "secret.rotatedHeading", { name: result.name }),
        warning: (
          <>
            <strong className="font-semibold">{t("secret.warning")}</strong>
            {result.intent === "rotate" ? ` ${t("secret.rotatedWarning")}` : ""}
          </>
        ),
        label: t("secret.label"),
        hint: t("secret.prefixHint", { prefix: result.prefix }),
        copy: t("secret.copy"),
        copied: t("secret.copied"),
        copyFailed: t("secret.copyFailed"),
        done: t("secret.done"),
      }}
    />
  );
}

// The secret of a key just issued or rotated: shown here once (never by a loader), with a copy
// button once the page has hydrated, and focused so screen readers announce it.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Alert, Button, ButtonLink, Card } from "~/components/ui";
import { CopyIcon } from "~/components/copy-button";
import { useHydrated } from "~/components/use-hydrated";
import { KEYS_PAGE_PATH, type KeyActionOutcome } from "./key-page";

export function SecretPanel({ result }: { result: Extract<KeyActionOutcome, { secret: string }> }) {
  const { t } = useTranslation("apiKeys");
  const hydrated = useHydrated();
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const panel = useRef<HTMLDivElement>(null);
  // The panel replaces the form the user was looking at: bring it into view and announce it.
  useEffect(() => {
    panel.current?.focus({ preventScroll: true });
    panel.current?.scrollIntoView({ block: "nearest" });
  }, [result.secret]);
  const copy = () => {
    navigator.clipboard.writeText(result.secret).then(
      () => setCopyState("copied"),
      () => setCopyState("failed"),
    );
  };
  return (
    <div ref={panel} tabIndex={-1} className="scroll-mt-24 rounded-xl focus:outline-none" data-testid="secret-panel">
      <Card tone="warning" title={t(result.intent === "issue" ? "secret.issuedHeading" : "secret.rotatedHeading", { name: result.name })}>
        <div className="space-y-4">
          <Alert tone="warning">
            <strong className="font-semibold">{t("secret.warning")}</strong>
            {result.intent === "rotate" ? ` ${t("secret.rotatedWarning")}` : ""}
          </Alert>
          <div>
            <label htmlFor="issued-secret" className="block text-sm font-medium text-slate-800">
              {t("secret.label")}
            </label>
            <div className="mt-1.5 flex flex-col gap-2 md:flex-row md:items-stretch">
              {/* A textarea so narrow screens show the whole secret (76 characters) on several lines
                  instead of scrolling it: three on phones, two beside the copy button until the
                  line is wide enough for all of it (xl). */}
              <textarea
                id="issued-secret"
                readOnly
                rows={1}
                value={result.secret}
                onFocus={(event) => event.currentTarget.select()}
                className="block h-20 w-full min-w-0 resize-none md:flex-1 overflow-hidden rounded-md border-0 bg-slate-50 px-3 py-2 font-mono text-sm leading-5 break-all text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-600 md:h-14 xl:h-9"
                autoComplete="off"
                spellCheck={false}
                aria-describedby="issued-secret-prefix"
              />
              {hydrated ? (
                <Button type="button" variant="secondary" onClick={copy} className="shrink-0 md:min-w-28" aria-live="polite">
                  <CopyIcon copied={copyState === "copied"} />
                  {copyState === "copied" ? t("secret.copied") : t("secret.copy")}
                </Button>
              ) : null}
            </div>
            <p id="issued-secret-prefix" className="mt-1.5 text-sm text-slate-500">
              {t("secret.prefixHint", { prefix: result.prefix })}
            </p>
            {copyState === "failed" ? (
              <p className="mt-1 text-sm text-red-700" role="alert">
                {t("secret.copyFailed")}
              </p>
            ) : null}
          </div>
          <div className="border-t border-slate-100 pt-4">
            <ButtonLink to={KEYS_PAGE_PATH} replace variant="secondary" className="w-full sm:w-auto">
              {t("secret.done")}
            </ButtonLink>
          </div>
        </div>
      </Card>
    </div>
  );
}

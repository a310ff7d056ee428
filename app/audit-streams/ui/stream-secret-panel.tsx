// A new webhook stream's signing secret: shown here once (only the create action answers it, never
// a loader), with a copy button once the page is interactive, focused so screen readers announce it.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Alert, Button, ButtonLink, Card } from "~/components/ui";
import { CopyIcon } from "~/components/copy-button";
import { useHydrated } from "~/components/use-hydrated";
import { streamPagePath } from "./stream-page";

export function StreamSecretPanel({ streamId, name, secret }: { streamId: string; name: string; secret: string }) {
  const { t } = useTranslation("auditStreams");
  const hydrated = useHydrated();
  const [copyState, setCopyState] = useState<"idle" | "copied" | "failed">("idle");
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus({ preventScroll: true });
    panel.current?.scrollIntoView({ block: "nearest" });
  }, [secret]);
  const copy = () => {
    navigator.clipboard.writeText(secret).then(
      () => setCopyState("copied"),
      () => setCopyState("failed"),
    );
  };
  return (
    <div ref={panel} tabIndex={-1} className="scroll-mt-24 rounded-xl focus:outline-none" data-testid="stream-secret-panel">
      <Card tone="warning" title={t("secret.heading", { name })}>
        <div className="space-y-4">
          <Alert tone="warning">
            <strong className="font-semibold">{t("secret.warning")}</strong>
          </Alert>
          <div>
            <label htmlFor="stream-secret" className="block text-sm font-medium text-slate-800">
              {t("secret.label")}
            </label>
            <div className="mt-1.5 flex flex-col gap-2 md:flex-row md:items-stretch">
              <textarea
                id="stream-secret"
                readOnly
                rows={1}
                value={secret}
                onFocus={(event) => event.currentTarget.select()}
                className="block h-14 w-full min-w-0 resize-none overflow-hidden rounded-md border-0 bg-slate-50 px-3 py-2 font-mono text-sm leading-5 break-all text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-600 md:flex-1 xl:h-9"
                autoComplete="off"
                spellCheck={false}
              />
              {hydrated ? (
                <Button type="button" variant="secondary" onClick={copy} className="shrink-0 md:min-w-28" aria-live="polite">
                  <CopyIcon copied={copyState === "copied"} />
                  {copyState === "copied" ? t("secret.copied") : t("secret.copy")}
                </Button>
              ) : null}
            </div>
            {copyState === "failed" ? (
              <p className="mt-1 text-sm text-red-700" role="alert">
                {t("secret.copyFailed")}
              </p>
            ) : null}
          </div>
          <div className="border-t border-slate-100 pt-4">
            <ButtonLink to={streamPagePath(streamId)} variant="secondary" className="w-full sm:w-auto">
              {t("secret.done")}
            </ButtonLink>
          </div>
        </div>
      </Card>
    </div>
  );
}

// A secret shown once (a key just issued or rotated, a webhook stream's signing secret): never by
// a loader, only in the answer of the action that made it. The panel takes the focus and comes into
// view, so screen readers announce it where the form was; the copy button appears once the page is
// interactive; "Done" leaves the page, and with it the secret.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Alert, Button, ButtonLink, Card } from "./ui";
import { CopyIcon } from "./copy-button";
import { useHydrated } from "./use-hydrated";

export interface OneTimeSecretText {
  title: string;
  /** Bold, at the top: that it is shown only now. */
  warning: ReactNode;
  label: string;
  /** Under the field (e.g. the key's prefix, to find it again in the list). */
  hint?: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

export function OneTimeSecret({
  secret,
  text,
  fieldId,
  doneTo,
  testId,
  tall = false,
}: {
  secret: string;
  text: OneTimeSecretText;
  fieldId: string;
  /** Where "Done" goes (replacing this history entry, so Back does not return to the secret). */
  doneTo: string;
  testId: string;
  /** A long secret (an API key's 76 characters): three lines on phones, two beside the button until xl. */
  tall?: boolean;
}) {
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
  const hintId = `${fieldId}-hint`;
  return (
    <div ref={panel} tabIndex={-1} className="scroll-mt-24 rounded-xl focus:outline-none" data-testid={testId}>
      <Card tone="warning" title={text.title}>
        <div className="space-y-4">
          <Alert tone="warning">{text.warning}</Alert>
          <div>
            <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
              {text.label}
            </label>
            <div className="mt-1.5 flex flex-col gap-2 md:flex-row md:items-stretch">
              {/* A textarea so narrow screens show the whole secret on several lines instead of scrolling it. */}
              <textarea
                id={fieldId}
                readOnly
                rows={1}
                value={secret}
                onFocus={(event) => event.currentTarget.select()}
                className={`block ${tall ? "h-20 md:h-14" : "h-14"} w-full min-w-0 resize-none overflow-hidden rounded-md border-0 bg-slate-50 px-3 py-2 font-mono text-sm leading-5 break-all text-slate-900 ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-600 md:flex-1 xl:h-9`}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={text.hint ? hintId : undefined}
              />
              {hydrated ? (
                <Button type="button" variant="secondary" onClick={copy} className="shrink-0 md:min-w-28" aria-live="polite">
                  <CopyIcon copied={copyState === "copied"} />
                  {copyState === "copied" ? text.copied : text.copy}
                </Button>
              ) : null}
            </div>
            {text.hint ? (
              <p id={hintId} className="mt-1.5 text-sm text-slate-500">
                {text.hint}
              </p>
            ) : null}
            {copyState === "failed" ? (
              <p className="mt-1 text-sm text-red-700" role="alert">
                {text.copyFailed}
              </p>
            ) : null}
          </div>
          <div className="border-t border-slate-100 pt-4">
            <ButtonLink to={doneTo} replace variant="secondary" className="w-full sm:w-auto">
              {text.done}
            </ButtonLink>
          </div>
        </div>
      </Card>
    </div>
  );
}

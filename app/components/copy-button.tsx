// A small button that copies an id (a key's, an organization's, an event's) to the clipboard. It
// appears only once the page has hydrated: without JavaScript it could do nothing, and the id beside
// it stays selectable text. After a copy it says "Copied" in words, shown and announced through a
// polite live region, so a screen reader hears what the check mark shows.
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { buttonClass } from "./ui";
import { useHydrated } from "./use-hydrated";

/** How long the confirmation stays before the button reads "Copy" again. */
const CONFIRMATION_MS = 2500;

export function CopyButton({ value, label }: { value: string; /** The accessible name: "Copy key ID of CI". */ label: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [state]);
  if (!hydrated) return null;
  const copy = () => {
    navigator.clipboard.writeText(value).then(
      () => setState("copied"),
      () => setState("failed"),
    );
  };
  return (
    <span className="inline-flex items-center gap-1.5 align-middle">
      <button type="button" onClick={copy} aria-label={label} title={label} className={buttonClass("ghost", "px-1.5", "sm")}>
        <CopyIcon copied={state === "copied"} />
      </button>
      {/* Always in the page, so the change of its text is announced. */}
      <span role="status" className={state === "failed" ? "text-xs text-red-700" : "text-xs font-medium text-emerald-700"}>
        {state === "copied" ? t("copy.copied") : state === "failed" ? t("copy.failed") : ""}
      </span>
    </span>
  );
}

/** Two overlapping sheets, or a check mark once copied (also the issued secret's copy button). */
export function CopyIcon({ copied }: { copied: boolean }) {
  return (
    <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true" className="h-4 w-4">
      {copied ? (
        <path d="m4.5 10.5 3.5 3.5 7.5-8" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <>
          <rect x="7" y="7" width="9.5" height="9.5" rx="1.5" />
          <path d="M13 7V4.5A1.5 1.5 0 0 0 11.5 3h-7A1.5 1.5 0 0 0 3 4.5v7A1.5 1.5 0 0 0 4.5 13H7" />
        </>
      )}
    </svg>
  );
}

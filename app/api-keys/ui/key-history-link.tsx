// A key's history: the audit log filtered to that key. A plain link, so it works without JavaScript
// (with it, the key lists route its clicks: app/components/routed-links.ts);
// its accessible name says whose history it is, since every row has one. `iconOnlyOnPhones` keeps
// narrow rows to one column of text (the name stays in the accessible name and the tooltip).
import { buttonClass } from "~/components/ui";
import { keyHistoryHref } from "./key-page";
import type { KeyListText } from "./key-list-text";

export function HistoryLink({
  apiKey,
  text,
  iconOnlyOnPhones = false,
}: {
  apiKey: { id: string; name: string };
  text: KeyListText;
  iconOnlyOnPhones?: boolean;
}) {
  const label = text.t("history.linkLabel", { name: apiKey.name });
  return (
    <a
      href={keyHistoryHref(apiKey.id)}
      aria-label={label}
      title={iconOnlyOnPhones ? label : undefined}
      className={buttonClass("ghost", "shrink-0 whitespace-nowrap", "sm")}
      data-testid="key-history"
    >
      <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true" className="h-4 w-4 shrink-0">
        <path d="M3.5 10a6.5 6.5 0 1 0 1.9-4.6M3.5 3.5v2.9h2.9M10 6.5V10l2.5 1.5" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span className={iconOnlyOnPhones ? "hidden sm:inline" : undefined}>{text.history}</span>
    </a>
  );
}

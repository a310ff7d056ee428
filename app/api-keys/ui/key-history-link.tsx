// A key's history: the audit log filtered to that key. A plain link, so it works without JavaScript
// (with it, the key lists route its clicks: app/components/routed-links.ts);
// its accessible name says whose history it is, since every row has one. `iconOnlyOnPhones` keeps
// narrow rows to one column of text (the name stays in the accessible name and the tooltip). A plain
// function, not a component: both key lists render one per row.
import { buttonClass } from "~/components/ui";
import { keyHistoryHref } from "./key-page";
import type { KeyListText } from "./key-list-text";

export function historyLink(apiKey: { id: string; name: string }, text: KeyListText, { iconOnlyOnPhones = false } = {}) {
  const label = text.historyOf(apiKey.name);
  return (
    <a
      href={keyHistoryHref(apiKey.id)}
      aria-label={label}
      title={iconOnlyOnPhones ? label : undefined}
      className={buttonClass("ghost", "history-link shrink-0 whitespace-nowrap", "sm")}
      data-testid="key-history"
    >
      {iconOnlyOnPhones ? <span className="hidden sm:inline">{text.history}</span> : text.history}
    </a>
  );
}

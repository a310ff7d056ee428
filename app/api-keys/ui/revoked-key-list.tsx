// The "Revoked keys" history: newest revocation first, one page at a time. Each row says when and
// by whom (the revoking user's current name). Paging is plain links that land on this section, so it
// works without JavaScript; the cursor in the link is opaque.
import { ButtonLink, Card } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import type { KeysPageData } from "~/api-keys/keys-page.server";
import type { Revoker } from "~/api-keys/revoked-keys.server";
import { REVOKED_CURSOR_PARAM } from "~/api-keys/revoked-cursor";
import { useRoutedClicks } from "~/components/routed-links";
import { historyLink } from "./key-history-link";
import { KEYS_PAGE_PATH } from "./key-page";
import { useKeyListText, type KeyListText } from "./key-list-text";
import { leakBadge, leakFacts } from "./leak-report";

export const REVOKED_SECTION_ID = "revoked-keys";

/** Who revoked a key; a plain function, as the list renders one per row. */
function revokedBy(revoker: Revoker, text: KeyListText) {
  if (revoker.kind === "user") return <span className="revoked-key-row-by">{text.t("revoked.by", { name: revoker.name })}</span>;
  if (revoker.kind === "deletedUser") return <em className="revoked-key-row-by">{text.revokedByDeletedUser}</em>;
  return null;
}

export function RevokedKeyList({ revoked, canViewHistory }: { revoked: KeysPageData["revoked"]; canViewHistory: boolean }) {
  const text = useKeyListText();
  const { t } = text;
  const formats = useFormats();
  const routeClicks = useRoutedClicks();
  const { keys, nextCursor, isFirstPage } = revoked;
  return (
    <Card id={REVOKED_SECTION_ID} className="scroll-mt-24" title={t("revoked.heading")} description={t("revoked.description")}>
      {keys.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="revoked-keys-empty">
          {isFirstPage ? t("revoked.empty") : t("revoked.noOlder")}
        </p>
      ) : (
        <ul className="-my-3 divide-y divide-slate-100" data-testid="revoked-keys" onClick={routeClicks}>
          {keys.map((key) => (
            <li key={key.id} data-revoked-key-id={key.id} className="revoked-key-row">
              <div className="min-w-0 flex-1">
                <p className="revoked-key-row-title">
                  <span className="revoked-key-row-name" data-testid="key-name">
                    {key.name}
                  </span>
                  <code className="font-mono text-xs text-slate-500" data-testid="key-prefix" title={text.prefix}>
                    {`${key.prefix}…`}
                  </code>
                  {leakBadge(key.reportedLeak, text)}
                </p>
                <p className="revoked-key-row-facts" data-testid="key-revoked">
                  {`${text.revokedOn} `}
                  <time dateTime={key.revokedAt} className="whitespace-nowrap">{`${formats.dateTime(key.revokedAt)} UTC`}</time>{" "}
                  {revokedBy(key.revokedBy, text)}
                </p>
                {leakFacts(key.reportedLeak, text, formats, text.leak.revokedAdvice)}
              </div>
              {canViewHistory ? historyLink(key, text, { iconOnlyOnPhones: true }) : null}
            </li>
          ))}
        </ul>
      )}
      {!isFirstPage || nextCursor ? (
        <nav
          className="mt-5 flex justify-between gap-3 border-t border-slate-100 pt-4"
          aria-label={t("revoked.pages")}
          data-testid="revoked-pages"
        >
          {!isFirstPage ? (
            <ButtonLink to={`${KEYS_PAGE_PATH}#${REVOKED_SECTION_ID}`} variant="secondary" size="sm">
              {t("revoked.newest")}
            </ButtonLink>
          ) : (
            <span />
          )}
          {nextCursor ? (
            <ButtonLink
              to={`${KEYS_PAGE_PATH}?${new URLSearchParams({ [REVOKED_CURSOR_PARAM]: nextCursor }).toString()}#${REVOKED_SECTION_ID}`}
              variant="secondary"
              size="sm"
              data-testid="revoked-next-page"
            >
              {t("revoked.older")} →
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
    </Card>
  );
}

// The "Revoked keys" history: newest revocation first (or by last use, `sort=lastUsed`), one page
// at a time, narrowed by the page's filters. Each row says when and by whom (the revoking user's
// current name). Paging is plain links that keep the filters and land on this section, so it works
// without JavaScript; the cursor in the link is opaque.
import { ButtonLink, Card } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import type { KeysPageData } from "~/api-keys/keys-page.server";
import type { Revoker } from "~/api-keys/revoked-keys.server";
import { REVOKED_CURSOR_PARAM } from "~/api-keys/revoked-cursor";
import { NO_KEY_FILTERS, keyFilterParams, narrowsKeys, type KeyFilters } from "~/api-keys/key-filters";
import { useRoutedClicks } from "~/components/routed-links";
import { historyLink } from "./key-history-link";
import { KEYS_PAGE_PATH } from "./key-page";
import { useKeyListText, type KeyListText } from "./key-list-text";
import { leakBadge, leakFacts } from "./leak-report";

export const REVOKED_SECTION_ID = "revoked-keys";

/** Who revoked a key; a plain function, as the list renders one per row. */
function revokedBy(revoker: Revoker, text: KeyListText) {
  if (revoker.kind === "user") return <span className="revoked-key-row-by">{text.revokedBy(revoker.name)}</span>;
  if (revoker.kind === "deletedUser") return <em className="revoked-key-row-by">{text.revokedByDeletedUser}</em>;
  return null;
}

/** A link to this section of the page with the filters kept, and `cursor` when given. */
function pageHref(filters: KeyFilters, cursor?: string) {
  const params = keyFilterParams(filters);
  if (cursor) params.set(REVOKED_CURSOR_PARAM, cursor);
  return `${KEYS_PAGE_PATH}${params.size ? `?${params.toString()}` : ""}#${REVOKED_SECTION_ID}`;
}

export function RevokedKeyList({
  revoked,
  canViewHistory,
  filters = NO_KEY_FILTERS,
}: {
  revoked: KeysPageData["revoked"];
  canViewHistory: boolean;
  filters?: KeyFilters;
}) {
  const text = useKeyListText();
  const { t } = text;
  const formats = useFormats();
  const routeClicks = useRoutedClicks();
  const { keys, nextCursor, isFirstPage } = revoked;
  const byLastUse = filters.sort === "lastUsed";
  return (
    <Card
      id={REVOKED_SECTION_ID}
      className="scroll-mt-24"
      title={t("revoked.heading")}
      description={t(byLastUse ? "filters.revokedByLastUse" : "revoked.description")}
    >
      {keys.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="revoked-keys-empty">
          {!isFirstPage ? t("revoked.noOlder") : narrowsKeys(filters) ? t("filters.noneRevoked") : t("revoked.empty")}
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
                {byLastUse ? (
                  <p className="revoked-key-row-facts" data-testid="key-last-used">
                    {key.lastUsedAt ? `${text.lastUsed}: ${formats.dateTime(key.lastUsedAt)} UTC` : text.neverUsed}
                  </p>
                ) : null}
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
            <ButtonLink to={pageHref(filters)} variant="secondary" size="sm">
              {t("revoked.newest")}
            </ButtonLink>
          ) : (
            <span />
          )}
          {nextCursor ? (
            <ButtonLink to={pageHref(filters, nextCursor)} variant="secondary" size="sm" data-testid="revoked-next-page">
              {t("revoked.older")} →
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
    </Card>
  );
}

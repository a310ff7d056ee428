// The organization's unrevoked keys (active and expired; at most 25): one compact row per key, the
// same markup on phones and desktops. What people scan for (name, state, prefix, expiry, last use)
// is always shown; scopes and who created the key sit in a <details> that opens without JavaScript.
// Revoked keys are not here: they are in the paged history below (revoked-key-list.tsx).
import { useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Card, badgeClass, buttonClass } from "~/components/ui";
import { CopyButton } from "~/components/copy-button";
import { localTime, useTimeSetting, type TimeSetting } from "~/components/local-time";
import { useFormats, type Formats } from "~/components/use-formats";
import type { ApiKeyView } from "~/api-keys/api-keys.server";
import { MAX_UNREVOKED_KEYS } from "~/api-keys/schemas";
import { KeyConfirmDialog, confirmLink, type KeyConfirmation } from "./key-confirmation";
import { useRoutedClicks } from "~/components/routed-links";
import { historyLink } from "./key-history-link";
import { ISSUE_KEY_HREF } from "./key-page";
import { useKeyListText, type KeyListText } from "./key-list-text";
import { leakBadge, leakFacts } from "./leak-report";

function stateTone(state: ApiKeyView["state"]) {
  return state === "active" ? "green" : state === "expired" ? "amber" : "slate";
}

function EmptyList({ hasRevoked }: { hasRevoked: boolean }) {
  const { t } = useTranslation("apiKeys");
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-6 py-8 text-center"
      data-testid="api-keys-empty"
    >
      <svg viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.4" aria-hidden="true" className="h-8 w-8 text-slate-400">
        <path
          d="M11.8 8.2a3.3 3.3 0 1 1-1.03-2.4M11.8 8.2 17 13.4V16h-2.6v-1.6h-1.6v-1.6h-1.6l-1.65-1.65"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <p className="text-sm font-medium text-slate-900">{t(hasRevoked ? "list.allRevokedTitle" : "list.emptyTitle")}</p>
      <p className="max-w-sm text-sm text-slate-500">{t("list.empty")}</p>
      <a href={ISSUE_KEY_HREF} className={buttonClass("primary", "mt-2")}>
        {t("issue.heading")}
      </a>
    </div>
  );
}

/** What every row of the list shares: its words and date formats (made once per page, not once
 * per row), whether history links show, and the dialog's opener. */
interface RowContext {
  canViewHistory: boolean;
  text: KeyListText;
  formats: Formats;
  time: TimeSetting;
  onConfirm: (confirmation: KeyConfirmation) => void;
}

/** One key. A plain function, not a component (as are its links): the list renders up to 25. */
function keyRow(key: ApiKeyView, { canViewHistory, text, formats, time, onConfirm }: RowContext) {
  const { t } = text;
  const details = text.details(key.scopes.length);
  return (
    <li key={key.id} data-key-id={key.id} className="key-row">
      <div className="min-w-0 flex-1">
        <div className="key-row-head">
          <span className="key-row-name" data-testid="key-name">
            {key.name}
          </span>
          <span className="key-row-badges">
            <span className={badgeClass(stateTone(key.state), "key-row-state")} data-testid="key-state">
              {text.states[key.state]}
            </span>
            {leakBadge(key.reportedLeak, text)}
          </span>
        </div>
        <div className="key-row-facts">
          <code className="font-mono" data-testid="key-prefix" title={text.prefix}>
            {`${key.prefix}…`}
          </code>
          <span>
            {key.expiresAt
              ? t(key.state === "expired" ? "list.expiredOn" : "list.expiresOn", { date: formats.date(key.expiresAt) })
              : text.noExpiry}
          </span>
          <span>
            {/* Day and time of day, in the reader's zone like every time in the app (UTC before hydration). */}
            {key.lastUsedAt ? (
              <>
                {text.lastUsedAt} {localTime(key.lastUsedAt, time)}
              </>
            ) : (
              text.neverUsed
            )}
          </span>
          <details className="key-row-details">
            <summary aria-label={details.of(key.name)}>{details.summary}</summary>
            <dl>
              <dt>{text.keyId}</dt>
              <dd className="flex flex-wrap items-center gap-x-2">
                <code className="font-mono text-xs break-all" data-testid="key-id">
                  {key.id}
                </code>
                <CopyButton value={key.id} label={text.copyKeyId(key.name)} />
              </dd>
              <dt>{text.scopesLabel}</dt>
              <dd data-testid="key-scopes">{key.scopes.map((scope) => text.scopes[scope] ?? scope).join(", ")}</dd>
              <dt>{text.created}</dt>
              <dd>
                {localTime(key.createdAt, time)}
                {key.createdBy && !key.createdBy.deleted ? (
                  ` ${text.createdBy(key.createdBy.name)}`
                ) : (
                  <>
                    {" "}
                    <em>{text.createdByDeletedUser}</em>
                  </>
                )}
              </dd>
              {key.lastUsedAt ? (
                <>
                  <dt>{text.lastUsed}</dt>
                  <dd>{localTime(key.lastUsedAt, time)}</dd>
                </>
              ) : null}
            </dl>
          </details>
        </div>
        {leakFacts(key.reportedLeak, text, formats, text.leak.advice)}
      </div>
      <div className="key-row-actions">
        {key.state === "active" ? confirmLink("rotate", key, text, onConfirm) : null}
        {confirmLink("revoke", key, text, onConfirm)}
        {canViewHistory ? historyLink(key, text) : null}
      </div>
    </li>
  );
}

export function KeyList({
  keys,
  hasRevoked,
  canViewHistory,
  unrevokedCount = keys.length,
  filtered = false,
}: {
  keys: ApiKeyView[];
  hasRevoked: boolean;
  canViewHistory: boolean;
  /** Unrevoked keys whatever the filters (the limit counts them all). */
  unrevokedCount?: number;
  /** Filters narrow the list: an empty one means no match, not no keys. */
  filtered?: boolean;
}) {
  const text = useKeyListText();
  const { t } = text;
  const formats = useFormats();
  const time = useTimeSetting();
  const routeClicks = useRoutedClicks();
  // One confirmation dialog for the whole list; each row's Rotate and Revoke open it.
  const [confirmation, setConfirmation] = useState<KeyConfirmation | null>(null);
  const [confirming, setConfirming] = useState(false);
  const onConfirm = (asked: KeyConfirmation) => {
    setConfirmation(asked);
    setConfirming(true);
  };
  return (
    <Card title={t("list.heading")} description={t("list.count", { count: unrevokedCount, limit: MAX_UNREVOKED_KEYS })}>
      <KeyConfirmDialog confirmation={confirmation} open={confirming} onOpenChange={setConfirming} text={text} />
      {keys.length === 0 && filtered ? (
        <p className="text-sm text-slate-500" data-testid="api-keys-no-match">
          {t("filters.noneInUse")}
        </p>
      ) : keys.length === 0 ? (
        <EmptyList hasRevoked={hasRevoked} />
      ) : (
        <ul className="-my-3 divide-y divide-slate-100" data-testid="unrevoked-keys" onClick={routeClicks}>
          {keys.map((key) => keyRow(key, { canViewHistory, text, formats, time, onConfirm }))}
        </ul>
      )}
    </Card>
  );
}

// The organization's keys: a table from `md` up, a card per key on phones, with rotate and revoke
// for keys that are not revoked.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Badge, Card, buttonClass, cx } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import type { ApiKeyView } from "~/api-keys/api-keys.server";
import { MAX_UNREVOKED_KEYS } from "~/api-keys/scopes";
import { ConfirmTrigger } from "./key-confirmation";
import { scopeLabelKey } from "./key-page";

function stateTone(state: ApiKeyView["state"]) {
  return state === "active" ? "green" : state === "expired" ? "amber" : "slate";
}

/** A cell of the key list: a table cell from `md` up, a labelled item of a card on phones. */
function KeyCell({ label, children, className }: { label?: string; children: ReactNode; className?: string }) {
  return (
    <td className={cx("min-w-0 md:table-cell md:px-3 md:py-3 md:align-top md:first:pl-5", className)}>
      {label ? <span className="mb-0.5 block text-xs font-medium text-slate-500 md:hidden">{label}</span> : null}
      {children}
    </td>
  );
}

export function KeyList({ keys, unrevoked }: { keys: ApiKeyView[]; unrevoked: number }) {
  const { t } = useTranslation("apiKeys");
  const formats = useFormats();
  const headers = ["name", "scopes", "created", "expires", "lastUsed", "state"] as const;
  return (
    <Card title={t("list.heading")} description={t("list.count", { count: unrevoked, limit: MAX_UNREVOKED_KEYS })}>
      {keys.length === 0 ? (
        <div
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center"
          data-testid="api-keys-empty"
        >
          <svg
            viewBox="0 0 20 20"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.4"
            aria-hidden="true"
            className="h-8 w-8 text-slate-400"
          >
            <path
              d="M11.8 8.2a3.3 3.3 0 1 1-1.03-2.4M11.8 8.2 17 13.4V16h-2.6v-1.6h-1.6v-1.6h-1.6l-1.65-1.65"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          <p className="text-sm font-medium text-slate-900">{t("list.emptyTitle")}</p>
          <p className="max-w-sm text-sm text-slate-500">{t("list.empty")}</p>
          <a href="#issue-key-card" className={buttonClass("primary", "mt-2")}>
            {t("issue.heading")}
          </a>
        </div>
      ) : (
        <div className="md:-mx-5 md:-my-5 md:overflow-x-auto">
          <table className="block w-full text-sm md:table md:min-w-full md:divide-y md:divide-slate-200">
            <thead className="hidden md:table-header-group">
              <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
                {headers.map((header) => (
                  <th key={header} scope="col" className="px-3 py-2.5 first:pl-5">
                    {t(`list.${header}`)}
                  </th>
                ))}
                <th scope="col" className="px-3 py-2.5 pr-5">
                  <span className="sr-only">{t("list.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody className="flex flex-col gap-3 md:table-row-group md:divide-y md:divide-slate-100">
              {keys.map((key) => {
                const revoked = key.state === "revoked";
                return (
                  <tr
                    key={key.id}
                    data-key-id={key.id}
                    className={cx(
                      "grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg p-4 ring-1 ring-slate-200 md:table-row md:rounded-none md:p-0 md:ring-0",
                      revoked && "bg-slate-50/70",
                    )}
                  >
                    <KeyCell className="col-span-2 md:min-w-40">
                      <span
                        className={cx(
                          "block font-medium break-words [overflow-wrap:anywhere]",
                          revoked ? "text-slate-500" : "text-slate-900",
                        )}
                        data-testid="key-name"
                      >
                        {key.name}
                      </span>
                      <span className="mt-0.5 block font-mono text-xs text-slate-500" data-testid="key-prefix" title={t("list.prefix")}>
                        {key.prefix}…
                      </span>
                    </KeyCell>
                    <KeyCell label={t("list.scopes")} className="col-span-2">
                      <ul className="flex flex-wrap gap-1" data-testid="key-scopes">
                        {key.scopes.map((scope) => (
                          <li key={scope}>
                            <Badge tone={revoked ? "slate" : "brand"}>
                              <span title={scope} className="whitespace-nowrap">
                                {t(scopeLabelKey(scope))}
                              </span>
                            </Badge>
                          </li>
                        ))}
                      </ul>
                    </KeyCell>
                    <KeyCell label={t("list.created")} className="text-slate-600">
                      <span className="block whitespace-nowrap">{formats.date(key.createdAt)}</span>
                      <span className="block text-xs text-slate-500">
                        {key.createdBy && !key.createdBy.deleted ? (
                          t("list.createdByName", { name: key.createdBy.name })
                        ) : (
                          <em>{t("list.deletedUser")}</em>
                        )}
                      </span>
                    </KeyCell>
                    <KeyCell label={t("list.expires")} className="text-slate-600 md:whitespace-nowrap">
                      {key.expiresAt ? formats.date(key.expiresAt) : <span className="text-slate-400">{t("list.noExpiry")}</span>}
                    </KeyCell>
                    <KeyCell label={t("list.lastUsed")} className="text-slate-600">
                      {key.lastUsedAt ? (
                        <time dateTime={key.lastUsedAt} title={`${formats.dateTime(key.lastUsedAt)} UTC`}>
                          <span className="whitespace-nowrap">{formats.date(key.lastUsedAt)}</span>{" "}
                          <span className="whitespace-nowrap text-slate-500 md:block md:text-xs">{`${formats.time(key.lastUsedAt)} UTC`}</span>
                        </time>
                      ) : (
                        <span className="text-slate-400">{t("list.never")}</span>
                      )}
                    </KeyCell>
                    <KeyCell label={t("list.state")}>
                      <span data-testid="key-state">
                        <Badge tone={stateTone(key.state)}>{t(`states.${key.state}`)}</Badge>
                      </span>
                    </KeyCell>
                    <td
                      className={cx(
                        "col-span-2 md:table-cell md:w-px md:py-3 md:pl-3 md:pr-5 md:align-top",
                        revoked ? "hidden" : "border-t border-slate-100 pt-3 md:border-0",
                      )}
                    >
                      {revoked ? null : (
                        <div className="flex gap-2 md:flex-col md:items-stretch md:whitespace-nowrap">
                          {key.state === "active" ? <ConfirmTrigger intent="rotate" apiKey={key} /> : null}
                          <ConfirmTrigger intent="revoke" apiKey={key} />
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}

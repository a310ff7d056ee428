// "Find keys": the keys page's filters and sort as a GET form (`?q=&scope=&state=&sort=`), so it
// works without JavaScript; with JavaScript the same search, navigated by React Router without the
// empty fields and the default sort. A pasted whole secret never reaches the address with
// JavaScript (the form sends its prefix only); without it the server searches by the prefix and
// the page says so, never showing the rest (decision 0059). The controls always show what the URL
// applies: the form is drawn afresh whenever the applied filters change.
import { useState, type FormEvent } from "react";
import { Form, Link, useNavigate } from "react-router";
import { API_KEY_SCOPES } from "~/access/api-key-scopes";
import { Alert, Button, ButtonLink, Card, controlClass, cx } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import type { KeyCounts } from "~/api-keys/key-filters-sql.server";
import {
  KEY_FILTER_PARAMS,
  KEY_QUERY_MAX,
  KEY_STATES,
  SECRET_PREFIX_LENGTH,
  keyFilterParams,
  looksLikeWholeSecret,
  narrowsKeys,
  type KeyFilters,
} from "~/api-keys/key-filters";
import { KEYS_PAGE_PATH, LEAKED_KEY_LOOKUP_PATH, scopeLabelKey } from "./key-page";

const labelClass = "block min-w-0 space-y-1.5 text-sm font-medium text-slate-800";

/** The search as the page applied it: a pasted secret's prefix, and a note saying only that was used. */
function ShortenedNote({ prefix }: { prefix: string }) {
  const { t } = useTranslation("apiKeys");
  return (
    <div className="mt-4" data-testid="key-filters-shortened">
      <Alert tone="warning">
        {t("filters.shortened", { prefix })}{" "}
        <Link to={LEAKED_KEY_LOOKUP_PATH} className="font-medium underline">
          {t("filters.lookup")}
        </Link>
      </Alert>
    </div>
  );
}

export function KeyFiltersForm({ filters, shortened, counts }: { filters: KeyFilters; shortened: boolean; counts: KeyCounts | null }) {
  const { t } = useTranslation("apiKeys");
  const navigate = useNavigate();
  // Set when this browser cut a pasted secret before sending it: the server never saw the rest.
  const [cutHere, setCutHere] = useState(false);
  const applied = keyFilterParams(filters).toString();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const params = new URLSearchParams();
    let cut = false;
    for (const [name, raw] of new FormData(event.currentTarget)) {
      if (typeof raw !== "string") continue;
      let value = raw.trim();
      if (name === KEY_FILTER_PARAMS.query && looksLikeWholeSecret(value)) {
        value = value.slice(0, SECRET_PREFIX_LENGTH);
        cut = true;
      }
      if (value && !(name === KEY_FILTER_PARAMS.sort && value === "created")) params.append(name, value);
    }
    setCutHere(cut);
    void navigate(params.size ? `${KEYS_PAGE_PATH}?${params.toString()}` : KEYS_PAGE_PATH);
  };
  return (
    <Card title={t("filters.heading")}>
      <Form
        key={applied}
        method="get"
        action={KEYS_PAGE_PATH}
        autoComplete="off"
        onSubmit={submit}
        // The search on its own row, the three choices below it: four in a row squeezed the selects
        // to "Jede Berechtig…" in German at 1280 px, hiding what the URL applies.
        className="grid gap-4 sm:grid-cols-3 sm:items-end"
        data-testid="key-filters"
      >
        <div className="space-y-1.5 sm:col-span-3">
          <label className={labelClass}>
            <span>{t("filters.query")}</span>
            <input
              type="search"
              name={KEY_FILTER_PARAMS.query}
              defaultValue={filters.query ?? ""}
              aria-describedby="key-filters-query-hint"
              maxLength={KEY_QUERY_MAX}
              spellCheck={false}
              className={cx(controlClass, "pr-3 sm:max-w-md")}
            />
          </label>
          <p id="key-filters-query-hint" className="text-sm text-slate-500">
            {t("filters.queryHint")}
          </p>
        </div>
        <label className={labelClass}>
          <span>{t("filters.scope")}</span>
          <select name={KEY_FILTER_PARAMS.scope} defaultValue={filters.scope ?? ""} className={cx(controlClass, "truncate")}>
            <option value="">{t("filters.anyScope")}</option>
            {API_KEY_SCOPES.map((scope) => (
              <option key={scope} value={scope}>
                {t(scopeLabelKey(scope))}
              </option>
            ))}
          </select>
        </label>
        <label className={labelClass}>
          <span>{t("filters.state")}</span>
          <select name={KEY_FILTER_PARAMS.state} defaultValue={filters.state ?? ""} className={cx(controlClass, "truncate")}>
            <option value="">{t("filters.anyState")}</option>
            {KEY_STATES.map((state) => (
              <option key={state} value={state}>
                {t(`states.${state}`)}
              </option>
            ))}
          </select>
        </label>
        <label className={labelClass}>
          <span>{t("filters.sort")}</span>
          <select name={KEY_FILTER_PARAMS.sort} defaultValue={filters.sort} className={cx(controlClass, "truncate")}>
            <option value="created">{t("filters.sortCreated")}</option>
            <option value="lastUsed">{t("filters.sortLastUsed")}</option>
          </select>
        </label>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 sm:col-span-3">
          <Button type="submit" className="whitespace-nowrap">
            {t("filters.apply")}
          </Button>
          {applied ? (
            <ButtonLink to={KEYS_PAGE_PATH} variant="secondary" className="whitespace-nowrap" data-testid="key-filters-clear">
              {t("filters.clear")}
            </ButtonLink>
          ) : null}
          {counts && narrowsKeys(filters) ? (
            <p className="text-sm text-slate-600" role="status" data-testid="key-filters-count">
              {t("filters.matches", { count: counts.matching, total: counts.total })}
            </p>
          ) : null}
        </div>
      </Form>
      {(shortened || cutHere) && filters.query ? <ShortenedNote prefix={filters.query} /> : null}
    </Card>
  );
}

/** Nothing matches: one empty state in place of both lists, with the way back. */
export function NoKeyMatches() {
  const { t } = useTranslation("apiKeys");
  return (
    <div
      className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-6 py-8 text-center"
      data-testid="key-filters-no-match"
    >
      <p className="text-sm font-medium text-slate-900">{t("filters.noMatchTitle")}</p>
      <p className="max-w-sm text-sm text-slate-500">{t("filters.noMatch")}</p>
      <ButtonLink to={KEYS_PAGE_PATH} variant="secondary" className="mt-2">
        {t("filters.clear")}
      </ButtonLink>
    </div>
  );
}

// Finding keys: the filters and sort of the keys page (`?q=&scope=&state=&sort=`) and of apiKey.list
// (`query`, `scope`, `state`, `sort`), described once. Client-safe: the page's form reads the same
// names and the same secret rule (docs/decisions/0059-findable-keys.md).
//
// The search matches a key's name (case-insensitive, anywhere in it) and, when it starts with the
// secret marker `sk_`, the start of the key's prefix. A search is never a whole secret: the page
// shortens a pasted secret to its prefix and says so (the rest is not kept, shown or logged), and
// apiKey.list refuses one with a 400 naming apiKey.lookup. Bad values are a 400 with a translated
// message, like the page's bad revokedCursor.
import { z } from "zod";
import { API_KEY_SCOPES, type ApiKeyScope } from "~/access/api-key-scopes";
import { DomainError } from "~/lib/domain-error";
import { errorKey, type ErrorKey } from "~/lib/error-key";
import { isStorableText } from "~/lib/text";
import { KEY_NAME_MAX, type ApiKeyState } from "./schemas";

export const KEY_STATES = ["active", "expired", "revoked"] as const satisfies readonly ApiKeyState[];

/** `created`: keys in use newest first, the revoked history newest revocation first (as without a
 * sort); `lastUsed`: both by last use, most recent first, never-used keys last. */
export const KEY_SORTS = ["created", "lastUsed"] as const;
export type KeySort = (typeof KEY_SORTS)[number];

/** What lists show of a secret: the marker and 8 characters (secret.server.ts; a test keeps them equal). */
export const SECRET_PREFIX_LENGTH = 11;
const SECRET_MARKER = "sk_";

/** No key's name is longer, and a prefix is shorter: a longer search cannot match anything. */
export const KEY_QUERY_MAX = KEY_NAME_MAX;

export interface KeyFilters {
  /** Trimmed, NFC; null: no search. */
  query: string | null;
  scope: ApiKeyScope | null;
  state: ApiKeyState | null;
  sort: KeySort;
}

export const NO_KEY_FILTERS: KeyFilters = { query: null, scope: null, state: null, sort: "created" };

/** The page's search params, by filter. */
export const KEY_FILTER_PARAMS = { query: "q", scope: "scope", state: "state", sort: "sort" } as const;

/** Whether the filters narrow the lists (a sort alone only reorders them). */
export const narrowsKeys = (filters: KeyFilters) => filters.query !== null || filters.scope !== null || filters.state !== null;

/** The search is for prefixes too: it starts with the secret marker (any case, as the search is). */
export const searchesPrefix = (query: string) => query.slice(0, SECRET_MARKER.length).toLowerCase() === SECRET_MARKER;

/** Text that, trimmed as the search trims it, is longer than a prefix and starts like a secret:
 * treated as a pasted secret. Trimmed here too, so that what repeats the raw address (the language
 * links) leaves out the same values the search shortens. */
export const looksLikeWholeSecret = (value: string) => {
  const trimmed = value.trim();
  return searchesPrefix(trimmed) && trimmed.length > SECRET_PREFIX_LENGTH;
};

type CheckedQuery = { ok: true; query: string | null; shortened: boolean } | { ok: false; error: ErrorKey };

/** A search as given (trimmed); a pasted secret is shortened to its prefix (page) or refused (procedure). */
function checkQuery(raw: string, wholeSecret: "shorten" | "refuse"): CheckedQuery {
  let value = raw.trim();
  let shortened = false;
  if (looksLikeWholeSecret(value)) {
    if (wholeSecret === "refuse") return { ok: false, error: "apiKeyFilters.querySecret" };
    value = value.slice(0, SECRET_PREFIX_LENGTH);
    shortened = true;
  }
  if (value === "") return { ok: true, query: null, shortened };
  // Nothing a name can hold (control or invisible characters, broken text) can match one.
  if (!isStorableText(value)) return { ok: false, error: "apiKeyFilters.queryInvalid" };
  if ([...value].length > KEY_QUERY_MAX) return { ok: false, error: "apiKeyFilters.queryTooLong" };
  return { ok: true, query: value.normalize("NFC"), shortened };
}

function oneOf<const T extends readonly string[]>(values: T, value: string | undefined, error: ErrorKey): T[number] | null {
  if (value === undefined || value.trim() === "") return null;
  const found = values.find((allowed) => allowed === value.trim());
  if (found === undefined) throw new DomainError("BAD_REQUEST", error);
  return found;
}

/** The page's filters from its search params; `queryShortened` when a pasted secret was cut to its prefix. */
export function parseKeyFilters(params: URLSearchParams): { filters: KeyFilters; queryShortened: boolean } {
  const single = (name: string) => {
    const values = params.getAll(name);
    if (values.length > 1) throw new DomainError("BAD_REQUEST", "apiKeyFilters.repeated");
    return values[0];
  };
  const checked = checkQuery(single(KEY_FILTER_PARAMS.query) ?? "", "shorten");
  if (!checked.ok) throw new DomainError("BAD_REQUEST", checked.error, { params: { max: KEY_QUERY_MAX } });
  const filters: KeyFilters = {
    query: checked.query,
    scope: oneOf(API_KEY_SCOPES, single(KEY_FILTER_PARAMS.scope), "apiKeyFilters.badScope"),
    state: oneOf(KEY_STATES, single(KEY_FILTER_PARAMS.state), "apiKeyFilters.badState"),
    sort: oneOf(KEY_SORTS, single(KEY_FILTER_PARAMS.sort), "apiKeyFilters.badSort") ?? "created",
  };
  return { filters, queryShortened: checked.shortened };
}

/** The search params of a link that keeps the filters (paging the history, say); defaults left out. */
export function keyFilterParams(filters: KeyFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.query !== null) params.set(KEY_FILTER_PARAMS.query, filters.query);
  if (filters.scope !== null) params.set(KEY_FILTER_PARAMS.scope, filters.scope);
  if (filters.state !== null) params.set(KEY_FILTER_PARAMS.state, filters.state);
  if (filters.sort !== "created") params.set(KEY_FILTER_PARAMS.sort, filters.sort);
  return params;
}

/** apiKey.list's input: the filters are optional; a call with only organizationId (and revokedCursor)
 * answers exactly as before they existed. */
export const listKeysInputSchema = z
  .object({
    organizationId: z.string(),
    revokedCursor: z.string().optional(),
    query: z
      .string({ error: errorKey("apiKeyFilters.queryInvalid") })
      .transform((value, ctx) => {
        const checked = checkQuery(value, "refuse");
        if (checked.ok) return checked.query;
        if (checked.error === "apiKeyFilters.queryTooLong")
          ctx.addIssue({ code: "too_big", origin: "string", maximum: KEY_QUERY_MAX, inclusive: true, message: checked.error });
        else ctx.addIssue({ code: "custom", message: checked.error });
        return z.NEVER;
      })
      .optional(),
    scope: z.enum(API_KEY_SCOPES, { error: errorKey("apiKeyFilters.badScope") }).optional(),
    state: z.enum(KEY_STATES, { error: errorKey("apiKeyFilters.badState") }).optional(),
    sort: z.enum(KEY_SORTS, { error: errorKey("apiKeyFilters.badSort") }).optional(),
  })
  .strict();

export type ListKeysInput = z.infer<typeof listKeysInputSchema>;

/** The procedure's filters as the page's. */
export const filtersOfListInput = (input: ListKeysInput): KeyFilters => ({
  query: input.query ?? null,
  scope: input.scope ?? null,
  state: input.state ?? null,
  sort: input.sort ?? "created",
});

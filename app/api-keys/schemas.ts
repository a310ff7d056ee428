// The scopes a key can hold, and the input rules for keys. Shared by the page's forms (conform),
// the procedures (oRPC) and the domain code, so each rule lives here once. Messages are
// translation keys under `errors:`.
import { z } from "zod";
import { API_KEY_SCOPES, type ApiKeyScope } from "~/access/api-key-scopes";
import { endOfDay, isDateInRange, parseCalendarDay } from "~/lib/dates";
import { storedText } from "~/lib/text";
import { errorKey, type ErrorKey } from "~/lib/error-key";

/** Unrevoked keys (expired ones included) an organization may hold (docs/product-rules.md, Limits). */
export const MAX_UNREVOKED_KEYS = 25;
export const KEY_NAME_MAX = 100;

const apiKeyScopeSchema = z.enum(API_KEY_SCOPES, { error: errorKey("apiKey.unknownScope") });

const apiKeyNameSchema = storedText({ max: KEY_NAME_MAX });

/**
 * A list whose length is checked before its elements: zod reports every bad element, so a
 * 30,000-element list of garbage would cost seconds and a multi-megabyte answer before a length
 * rule placed after the elements ever ran.
 */
function scopeList(bounds: { min?: number; max: number; tooLong: ErrorKey; missing: ErrorKey }) {
  return z
    .array(z.unknown(), { error: bounds.missing })
    .min(bounds.min ?? 0, errorKey("apiKey.scopesRequired"))
    .max(bounds.max, bounds.tooLong)
    .pipe(z.array(apiKeyScopeSchema));
}

const apiKeyScopesSchema = scopeList({
  min: 1,
  max: API_KEY_SCOPES.length,
  tooLong: "apiKey.duplicateScopes",
  missing: "apiKey.scopesRequired",
}).refine((scopes) => new Set(scopes).size === scopes.length, errorKey("apiKey.duplicateScopes"));

/** apiKey.authenticate: at most this many scopes asked for in one call. */
export const MAX_REQUESTED_SCOPES = 50;

/** apiKey.authenticate: the scopes the key must hold (none: identity only). */
export const requestedScopesSchema = scopeList({ max: MAX_REQUESTED_SCOPES, tooLong: "apiKey.tooManyScopes", missing: "field.required" });

/** RPC: an ISO 8601 date-time with offset, e.g. 2027-01-31T23:59:59Z, within the accepted range. */
const apiKeyExpiresAtSchema = z.iso
  .datetime({ offset: true, error: errorKey("apiKey.invalidExpiry") })
  .transform((value) => new Date(value))
  .refine(isDateInRange, errorKey("apiKey.invalidExpiry"));

/** Page: a calendar date (YYYY-MM-DD, UTC); the key works until the end of that day. */
const apiKeyExpiresOnSchema = z.string().transform((value, ctx) => {
  const day = parseCalendarDay(value);
  if (!day.ok) {
    ctx.addIssue({ code: "custom", message: errorKey("apiKey.invalidExpiry") });
    return z.NEVER;
  }
  return new Date(endOfDay(value).getTime() - 1);
});

export const issueKeyRpcInputSchema = z
  .object({
    organizationId: z.string(),
    name: apiKeyNameSchema,
    scopes: apiKeyScopesSchema,
    expiresAt: apiKeyExpiresAtSchema.nullish(),
  })
  .strict();

export const issueKeyFormSchema = z.object({
  intent: z.literal("issue"),
  name: apiKeyNameSchema,
  scopes: apiKeyScopesSchema,
  expiresOn: apiKeyExpiresOnSchema.optional(),
});

/** Key ids are not validated as UUIDs here: an id we do not know is "not found", whatever its shape. */
export const keyActionFormSchema = z.object({
  intent: z.enum(["rotate", "revoke"]),
  keyId: z.string({ error: errorKey("field.required") }).max(200, errorKey("field.tooLong")),
});

export interface IssueKeyInput {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt?: Date | null;
}

export type ApiKeyState = "active" | "expired" | "revoked";

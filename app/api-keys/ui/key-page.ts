// Shared by the keys page's parts: its path, a key's history link, the scope label keys, and the
// action's typed result.
import { href } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import type { ApiKeyScope } from "~/access/api-key-scopes";

export const KEYS_PAGE_PATH = href("/dashboard/organization-settings/api-keys");
/** The leaked-key lookup (a page of its own, linked from the keys page's header). */
export const KEY_LOOKUP_PATH = href("/dashboard/organization-settings/api-keys/lookup");

/**
 * The issue form's name field. "Issue a key" links here, not to the card: following a link to a
 * field focuses it (the HTML spec's fragment navigation focuses a focusable target), so keyboard
 * and screen reader users land in the form, with or without JavaScript.
 */
export const ISSUE_KEY_NAME_ID = "issue-key-name";
export const ISSUE_KEY_HREF = `#${ISSUE_KEY_NAME_ID}`;

/** The audit log filtered to one key's events (the log takes `targetId`). */
export const keyHistoryHref = (keyId: string) =>
  `${href("/dashboard/organization-settings/audit-log")}?targetId=${encodeURIComponent(keyId)}`;

type Underscored<S extends string> = S extends `${infer Head}:${infer Tail}` ? `${Head}_${Tail}` : S;

/** `apiKeys:` label key of a scope: "audit:view" → scopes.audit_view. */
export const scopeLabelKey = <S extends ApiKeyScope>(scope: S) => `scopes.${scope.replace(":", "_")}` as `scopes.${Underscored<S>}`;

/** What a successful key action reports: a secret (shown once) or the revoked key's name. */
export type KeyActionOutcome =
  { intent: "issue" | "rotate"; name: string; secret: string; prefix: string } | { intent: "revoke"; name: string };

/** Every answer of the keys page's action: the form's reply, and the outcome when it succeeded. */
export interface KeyActionData {
  reply: SubmissionResult<string[]>;
  /** Which form was submitted, so its errors show beside it. */
  intent: string | null;
  outcome: KeyActionOutcome | null;
}

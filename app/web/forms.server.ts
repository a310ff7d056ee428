// Form plumbing shared by actions: parse with the zod schema (conform), and answer a DomainError
// as a form-level message (translated) with the DomainError's status.
import { requestLogContext } from "./context.server";
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { DomainError, domainErrorMessage } from "~/lib/domain-error";
import { errorHeaders } from "~/lib/error-headers";
import { asDomainError } from "~/lib/known-errors.server";
import { translatorFor } from "~/i18n/i18next.server";
import { httpErrorOf } from "./http-errors.server";

/** No form of ours has a list this long. conform reads "scopes[150000000]" as a list of that
 * length and allocates every slot: one 50-byte request could exhaust the process's memory. */
const MAX_LIST_INDEX = 100;

/** Nor names nested this deep (the deepest has one level, `webhook.url`): conform builds a name's
 * path recursively, and `x[0][0]…` 3,000 levels deep overflowed the stack (a 500). */
const MAX_NAME_DEPTH = 8;

/** Nor this many fields (the largest, a new audit stream without JavaScript, has about 20): conform joins a repeated name's values by
 * copying the list each time, so 40,000 `x=1` held the event loop for 5 s and 200,000 for 2 min. */
const MAX_FIELDS = 500;

/** conform's own fields (list and validation intents, a form's state): it parses them as JSON and
 * throws on anything else (a 500), and no form of ours sends them. */
const CONFORM_RESERVED = new Set(["__intent__", "__state__"]);

function hasHugeIndex(name: string): boolean {
  for (const [, index] of name.matchAll(/\[(\d+)\]/g)) if (index!.length > 3 || Number(index) > MAX_LIST_INDEX) return true;
  return false;
}

function isNestedTooDeep(name: string): boolean {
  let depth = 0;
  for (const char of name) if ((char === "[" || char === ".") && ++depth > MAX_NAME_DEPTH) return true;
  return false;
}

/** A field no form of ours has: left out before conform sees the form, so the schema reports what
 * is missing, as for any bad form. */
function isForeignField(name: string): boolean {
  return CONFORM_RESERVED.has(name) || hasHugeIndex(name) || isNestedTooDeep(name);
}

/**
 * Parses a form body with its zod schema (through conform). A body that is not a form (JSON, a
 * broken multipart body) or has more fields than any form of ours is a translated 400 before the
 * action does anything: read as an empty form, it would pass a schema whose fields are all
 * optional. Fields no form of ours has are dropped (isForeignField).
 */
export async function parseForm<Schema extends z.ZodType>(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  schema: Schema,
) {
  const received = await request.formData().catch(() => null);
  if (received === null) throw httpErrorOf(context, new DomainError("BAD_REQUEST", "formUnreadable"));
  const formData = new FormData();
  let fields = 0;
  for (const [name, value] of received) {
    if (++fields > MAX_FIELDS) throw httpErrorOf(context, new DomainError("BAD_REQUEST", "formTooManyFields"));
    if (!isForeignField(name)) formData.append(name, value);
  }
  return { formData, submission: parseWithZod(formData, { schema }) };
}

export function invalidForm(submission: Submission<unknown>, hideFields?: string[]) {
  return data(submission.reply({ hideFields }), { status: 400 });
}

/**
 * Runs the action's work; a DomainError becomes a translated form error instead of a crash.
 * On failure: `reply` (the form's errors) and `init` (status, Retry-After) for an action that wraps
 * the reply in its own result type, and `response`, the two already combined.
 */
export async function withFormErrors<T>(
  context: Readonly<RouterContextProvider>,
  submission: Submission<unknown>,
  work: () => Promise<T>,
  options: { hideFields?: string[] } = {},
) {
  try {
    return { ok: true as const, value: await work() };
  } catch (thrown) {
    const error = asDomainError(thrown, context.get(requestLogContext));
    if (!error) throw thrown;
    const t = translatorFor(context);
    const headers = new Headers(errorHeaders(error));
    const reply = submission.reply({ formErrors: [domainErrorMessage(error, t)], hideFields: options.hideFields });
    const init = { status: error.status, headers };
    return { ok: false as const, reply, init, response: data(reply, init) };
  }
}

/**
 * A form page's headers when its answer must not be cached: a route's `headers` is all the answer
 * carries, so a refusal's Retry-After (a 429 from withFormErrors) is passed on from the action.
 */
export function noStoreFormHeaders(actionHeaders: Headers): Headers {
  const headers = new Headers({ "Cache-Control": "no-store" });
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter !== null) headers.set("Retry-After", retryAfter);
  return headers;
}

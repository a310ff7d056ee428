// Form plumbing shared by actions: parse with the zod schema (conform), and answer a DomainError
// as a form-level message (translated) with the DomainError's status.
import { requestLogContext } from "./context.server";
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import { domainErrorMessage } from "~/lib/domain-error";
import { errorHeaders } from "~/lib/error-headers";
import { asDomainError } from "~/lib/known-errors.server";
import { translatorFor } from "~/i18n/i18next.server";

/** No form of ours has a list this long. conform reads "scopes[150000000]" as a list of that
 * length and allocates every slot: one 50-byte request could exhaust the process's memory. */
const MAX_LIST_INDEX = 100;

function hasHugeIndex(name: string): boolean {
  for (const [, index] of name.matchAll(/\[(\d+)\]/g)) if (index!.length > 3 || Number(index) > MAX_LIST_INDEX) return true;
  return false;
}

/** Parses a form body with its zod schema (through conform). Fields with absurd list indices are
 * dropped before conform sees them, so the schema reports what is missing, as for any bad form. */
export async function parseForm<Schema extends z.ZodType>(request: Request, schema: Schema) {
  const received = await request.formData().catch(() => new FormData());
  const formData = new FormData();
  for (const [name, value] of received) if (!hasHugeIndex(name)) formData.append(name, value);
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

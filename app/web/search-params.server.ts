// A page's query string through its zod schema. A bad value is a 400 with the schema's translated
// message (keys under `errors:`), never a 500 and never a silently ignored filter. The message is
// handed back: a list page shows it above its filters, with what was typed still in them, so it can
// be corrected in place (the answer's status is still 400).
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { domainErrorMessage, isDomainError } from "~/lib/domain-error";
import { isErrorKey } from "~/i18n/error-keys";
import { translatorFor } from "~/i18n/i18next.server";

interface Args {
  request: Request;
  context: Readonly<RouterContextProvider>;
}

/** One value per name: the first, as URLSearchParams.get reads it. */
export function searchParamsOf(request: Request): Record<string, string> {
  const params = new URL(request.url).searchParams;
  return Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.get(key)!]));
}

/** The parsed query, or the translated message of its first bad value. */
export function readSearchParams<Schema extends z.ZodType>(
  { request, context }: Args,
  schema: Schema,
): { ok: true; value: z.output<Schema> } | { ok: false; message: string } {
  const result = schema.safeParse(searchParamsOf(request));
  if (result.success) return { ok: true, value: result.data };
  // Our schemas' messages are keys; zod's own wording never reaches i18next (app/i18n/error-keys.ts).
  const message = result.error.issues[0]?.message ?? "";
  return { ok: false, message: translatorFor(context)(`errors:${isErrorKey(message) ? message : "badRequest"}`) };
}

/** Runs a read that may refuse its input (a forged cursor): the result, or the refusal's message. */
export async function orBadRequestMessage<T>(
  context: Readonly<RouterContextProvider>,
  work: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (isDomainError(error) && error.code === "BAD_REQUEST")
      return { ok: false, message: domainErrorMessage(error, translatorFor(context)) };
    throw error;
  }
}

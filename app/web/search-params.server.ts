// A page's query string through its zod schema: a bad value is a 400 with the schema's translated
// message (keys under `errors:`), never a 500 and never a silently ignored filter.
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { DomainError } from "~/lib/domain-error";
import { httpErrorOf } from "./http-errors.server";

export function parseSearchParams<Schema extends z.ZodType>(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  schema: Schema,
): z.output<Schema> {
  const params = new URL(request.url).searchParams;
  // One value per name: the first, as URLSearchParams.get reads it.
  const raw = Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.get(key)]));
  const result = schema.safeParse(raw);
  if (!result.success) throw httpErrorOf(context, new DomainError("BAD_REQUEST", result.error.issues[0]?.message ?? "badRequest"));
  return result.data;
}

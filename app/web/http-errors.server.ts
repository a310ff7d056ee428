// DomainError → HTTP, in one place. Route guards and actions throw the result so the route's
// ErrorBoundary renders it (or, for resource routes, the client receives it as JSON).
import { data, type RouterContextProvider } from "react-router";
import { DomainError, domainErrorMessage } from "~/lib/domain-error";
import { errorHeaders } from "~/lib/error-headers";
import type { ErrorKey } from "~/lib/error-key";
import { asDomainError } from "~/lib/known-errors.server";
import { translatorFor } from "~/i18n/i18next.server";
import type { Translate } from "~/i18n/keys";
import { rateLimitHeaders } from "~/lib/rate-limit-headers";
import { requestLogContext } from "./context.server";

export interface ErrorBody {
  code: string;
  message: string;
  /** Signing in (again) would help: the error page then offers a sign-in link back to the page. */
  signIn?: true;
}

function httpError(error: DomainError, t: Translate) {
  const headers = new Headers(errorHeaders(error));
  const signIn = error.code === "UNAUTHORIZED" || error.messageKey === "freshSessionRequired";
  const body: ErrorBody = { code: error.code, message: domainErrorMessage(error, t), ...(signIn ? { signIn: true } : {}) };
  return data(body, { status: error.status, headers });
}

/** A DomainError as the HTTP error to throw from a loader or action. */
export function httpErrorOf(context: Readonly<RouterContextProvider>, error: DomainError) {
  return httpError(error, translatorFor(context));
}

/** A 400 for a request no form of ours sends (e.g. a hand-made switch request). */
export function badRequest(context: Readonly<RouterContextProvider>) {
  return httpError(new DomainError("BAD_REQUEST", "badRequest"), translatorFor(context));
}

/** Runs domain code from a loader or action, turning a DomainError into a thrown HTTP error. */
export async function orHttpError<T>(context: Readonly<RouterContextProvider>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (thrown) {
    const error = asDomainError(thrown, context.get(requestLogContext));
    if (error) throw httpError(error, translatorFor(context));
    throw thrown;
  }
}

/**
 * An error as the JSON answer of an endpoint that programs and download links call (the audit
 * export): always `{code, message}`, the message in the caller's language, never cached; a
 * rate-limit refusal carries `Retry-After` and the RateLimit headers.
 */
export function jsonErrorResponse(
  context: Readonly<RouterContextProvider>,
  reply: { status: number; code: string; messageKey: ErrorKey; headers?: Record<string, string> },
): Response {
  const t = translatorFor(context);
  return Response.json(
    { code: reply.code, message: t(`errors:${reply.messageKey}`) },
    { status: reply.status, headers: { "Cache-Control": "no-store", ...reply.headers } },
  );
}

/** Runs an endpoint's work; what the caller should be told (asDomainError) becomes its JSON error answer. */
export async function orJsonError(context: Readonly<RouterContextProvider>, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (thrown) {
    const error = asDomainError(thrown, context.get(requestLogContext));
    if (error) return jsonErrorOf(context, error);
    throw thrown;
  }
}

export function jsonErrorOf(context: Readonly<RouterContextProvider>, error: DomainError): Response {
  const body = { code: error.code, message: domainErrorMessage(error, translatorFor(context)) };
  const headers = { "Cache-Control": "no-store", ...rateLimitHeaders(error.rateLimits ?? []), ...errorHeaders(error) };
  return Response.json(body, { status: error.status, headers });
}

// Request middleware for every page, action and resource route (root route).
import type { MiddlewareFunction } from "react-router";
import { authContext, requestLogContext } from "~/web/context.server";
import { noteRequest } from "~/lib/logger.server";
import { clearedSessionCookie, readSessionToken } from "~/auth/cookies.server";
import { validateSessionToken } from "~/auth/session.server";
import { shareMembershipReads } from "~/access/memberships.server";
import { languageCookie, languageFromSearchParams } from "~/i18n/i18next.server";
import { rememberUserLanguage } from "~/auth/user-language.server";

/** ?lng=de also remembers the choice in the lng cookie. */
export const rememberLanguage: MiddlewareFunction<Response> = async ({ request }, next) => {
  const language = await languageFromSearchParams(request);
  const response = await next();
  if (language) appendCookie(response, languageCookie(language));
  return response;
};

/** Loads the session from its cookie; a missing, forged or expired cookie means "signed out". */
export const loadSession: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const token = readSessionToken(request.headers.get("cookie"));
  const auth = token ? await validateSessionToken(token) : null;
  // A read-only request's loaders share one read of the user's organizations.
  if (auth && (request.method === "GET" || request.method === "HEAD")) shareMembershipReads(auth);
  context.set(authContext, auth);
  noteRequest(context.get(requestLogContext), { userId: auth?.user.id });
  // Switching language while signed in (?lng=, the language links) is also stored on the person,
  // for the mails that answer no request; an ordinary page view writes nothing.
  const chosen = auth ? await languageFromSearchParams(request) : null;
  if (auth && chosen) await rememberUserLanguage(auth.user.id, chosen);
  const response = await next();
  if (token && !auth) appendCookie(response, clearedSessionCookie());
  return response;
};

function appendCookie(response: Response, cookie: string) {
  try {
    response.headers.append("Set-Cookie", cookie);
  } catch {
    // Some responses (e.g. redirects built by fetch) have immutable headers; the cookie can wait.
  }
}

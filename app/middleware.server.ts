// Request middleware for every page, action and resource route (root route).
import { data, type MiddlewareFunction } from "react-router";
import { authContext } from "~/context.server";
import { clearedSessionCookie, readSessionToken } from "~/auth/cookies.server";
import { applicationOrigin, isCrossSiteRequest } from "~/auth/cross-site.server";
import { validateSessionToken } from "~/auth/session.server";
import { getInstance, languageCookie, languageFromSearchParams } from "~/i18n/i18next.server";

/** ?lng=de also remembers the choice in the lng cookie. */
export const rememberLanguage: MiddlewareFunction<Response> = async ({ request }, next) => {
  const language = languageFromSearchParams(new URL(request.url));
  const response = await next();
  if (language) appendCookie(response, languageCookie(language));
  return response;
};

/** Loads the session from its cookie; a missing, forged or expired cookie means "signed out". */
export const loadSession: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const token = readSessionToken(request.headers.get("cookie"));
  const auth = token ? await validateSessionToken(token) : null;
  context.set(authContext, auth);
  const response = await next();
  if (token && !auth) appendCookie(response, clearedSessionCookie());
  return response;
};

/** Cookie-authenticated writes must come from our own pages (spec, Authentication rule 7).
 * /rpc applies the same rule per procedure: apiKey.authenticate is not cookie-authenticated. */
export const rejectCrossSiteWrites: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const isWrite = request.method !== "GET" && request.method !== "HEAD";
  if (isWrite && !new URL(request.url).pathname.startsWith("/rpc/") && isCrossSiteRequest(request.headers, applicationOrigin(request.url))) {
    const t = getInstance(context).t;
    throw data({ code: "FORBIDDEN", message: t("errors:crossSite") }, { status: 403 });
  }
  return next();
};

function appendCookie(response: Response, cookie: string) {
  try {
    response.headers.append("Set-Cookie", cookie);
  } catch {
    // Some responses (e.g. redirects built by fetch) have immutable headers; the cookie can wait.
  }
}

// What every procedure receives. The session is loaded lazily: apiKey.authenticate never needs
// one, and must not pay for the lookup.
import { readSessionToken } from "~/auth/cookies.server";
import { applicationOrigin } from "~/web/cross-site.server";
import { validateSessionToken, type Auth } from "~/auth/session.server";
import type { Language } from "~/i18n/config";
import { noteRequest, type RequestLog } from "~/lib/logger.server";
import { fixedT, languageFromHeaders } from "~/i18n/i18next.server";
import type { Translate } from "~/i18n/keys";

export interface RpcContext {
  headers: Headers;
  appOrigin: string;
  language: Language;
  t: Translate;
  clientAddress: string;
  /** The request's log record; null when called outside the request edge (tests). */
  requestLog: RequestLog | null;
  loadAuth: () => Promise<Auth | null>;
  /** Response headers a procedure adds (oRPC's ResponseHeadersPlugin fills this in). */
  resHeaders?: Headers;
}

export function createRpcContext(url: string, headers: Headers, clientAddress: string, requestLog: RequestLog | null = null): RpcContext {
  const language = languageFromHeaders(headers);
  let auth: Promise<Auth | null> | undefined;
  return {
    headers,
    appOrigin: applicationOrigin(url),
    language,
    t: fixedT(language),
    clientAddress,
    requestLog,
    loadAuth: () => {
      if (!auth) {
        const token = readSessionToken(headers.get("cookie"));
        auth = (token ? validateSessionToken(token) : Promise.resolve(null)).then((found) => {
          noteRequest(requestLog, { userId: found?.user.id });
          return found;
        });
      }
      return auth;
    },
  };
}

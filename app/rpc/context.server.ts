// What every procedure receives. The session is loaded lazily: apiKey.authenticate never needs
// one, and must not pay for the lookup.
import type { TFunction } from "i18next";
import { readSessionToken } from "~/auth/cookies.server";
import { applicationOrigin } from "~/auth/cross-site.server";
import { validateSessionToken, type Auth } from "~/auth/session.server";
import type { Language } from "~/i18n/config";
import { fixedT, languageFromHeaders } from "~/i18n/i18next.server";

export interface RpcContext {
  headers: Headers;
  appOrigin: string;
  language: Language;
  t: TFunction;
  clientAddress: string;
  loadAuth: () => Promise<Auth | null>;
}

export function createRpcContext(url: string, headers: Headers, clientAddress: string): RpcContext {
  const language = languageFromHeaders(headers);
  let auth: Promise<Auth | null> | undefined;
  return {
    headers,
    appOrigin: applicationOrigin(url),
    language,
    t: fixedT(language),
    clientAddress,
    loadAuth: () => {
      if (!auth) {
        const token = readSessionToken(headers.get("cookie"));
        auth = token ? validateSessionToken(token) : Promise.resolve(null);
      }
      return auth;
    },
  };
}

import { createI18nextMiddleware } from "remix-i18next/middleware";
import i18next, { type i18n as I18n, type TFunction } from "i18next";
import { defaultNS, fallbackLanguage, isLanguage, supportedLanguages, type Language } from "./config";
import { namespaces, resources } from "./resources";
import { readCookie } from "~/auth/cookies.server";

const ONE_YEAR = 365 * 24 * 60 * 60;

/** A plain `lng=de` cookie, so people and scripts can set it by hand as CONTRACT.md promises. */
export function languageCookie(language: Language): string {
  return `lng=${language}; Path=/; SameSite=Lax; Max-Age=${ONE_YEAR}`;
}

/** The ?lng= parameter when it names a supported language (it then also becomes the cookie). */
export function languageFromSearchParams(url: URL): Language | null {
  const value = url.searchParams.get("lng");
  return isLanguage(value) ? value : null;
}

/** lng cookie, then Accept-Language (by quality), then English. Unknown values are ignored. */
export function languageFromHeaders(headers: Headers): Language {
  const cookie = readCookie(headers.get("cookie"), "lng");
  if (isLanguage(cookie)) return cookie;
  const ranked = (headers.get("accept-language") ?? "")
    .slice(0, 512)
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(params.find((p) => p.trim().startsWith("q="))?.trim().slice(2) ?? "1");
      return { language: tag.toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((entry) => entry.language).find(isLanguage) ?? fallbackLanguage;
}

export function detectLanguage(request: Request): Language {
  return languageFromSearchParams(new URL(request.url)) ?? languageFromHeaders(request.headers);
}

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...supportedLanguages],
    fallbackLanguage,
    order: ["custom"],
    findLocale: async (request) => detectLanguage(request),
  },
  i18next: { resources, ns: namespaces, defaultNS, fallbackLng: fallbackLanguage, interpolation: { escapeValue: false } },
});

// One shared instance for code outside React Router's request context (the RPC server).
const shared = i18next.createInstance();
void shared.init({
  resources,
  ns: namespaces,
  defaultNS,
  lng: fallbackLanguage,
  fallbackLng: fallbackLanguage,
  interpolation: { escapeValue: false },
  initAsync: false,
});

export function fixedT(language: Language): TFunction {
  return shared.getFixedT(language);
}

/** An instance for rendering outside the i18n middleware (an error page for a request it never saw). */
export function standaloneInstance(language: Language): I18n {
  return shared.cloneInstance({ lng: language, initAsync: false });
}

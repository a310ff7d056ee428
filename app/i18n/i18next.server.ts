// The request's language (docs/decisions/0005-language-selection.md) and the i18next instances.
// remix-i18next's detector decides the order: ?lng= first, then our own reading of the lng cookie
// and Accept-Language. Its own Accept-Language matcher is not used: it takes the client's first
// locale even when we do not offer it ("fr, de;q=0.8" would give English) and ignores q=0.
import { serialize } from "cookie";
import i18next, { type i18n as I18n } from "i18next";
import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { LanguageDetector, type LanguageDetectorOption } from "remix-i18next/server";
import { readCookie } from "~/lib/cookies";
import { defaultNS, fallbackLanguage, isLanguage, supportedLanguages, type Language } from "./config";
import type { NamespaceName, Translate } from "./keys";
import { namespaces, resources } from "./resources";

const ONE_YEAR = 365 * 24 * 60 * 60;

/** A plain `lng=de` cookie, so people and scripts can set it by hand (docs/contract.md). */
export function languageCookie(language: Language): string {
  return serialize("lng", language, { path: "/", sameSite: "lax", maxAge: ONE_YEAR });
}

/** lng cookie, then Accept-Language (by quality), then English. Unknown values are ignored. */
export function languageFromHeaders(headers: Headers): Language {
  return languageOf(headers.get("cookie"), headers.get("accept-language"));
}

/** The same rule from the raw header values (Node's), for callers that hold no fetch Headers. */
export function languageOf(cookieHeader: string | null | undefined, acceptLanguage: string | null | undefined): Language {
  const cookie = readCookie(cookieHeader, "lng");
  if (isLanguage(cookie)) return cookie;
  const ranked = (acceptLanguage ?? "")
    .slice(0, 512)
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? "1",
      );
      return { language: tag.toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((entry) => entry.language).find(isLanguage) ?? fallbackLanguage;
}

const detection: LanguageDetectorOption = {
  supportedLanguages: [...supportedLanguages],
  fallbackLanguage,
  searchParamKey: "lng",
  order: ["searchParams", "custom"],
  findLocale: async (request) => languageFromHeaders(request.headers),
};

const detector = new LanguageDetector(detection);
/** The same detector's first step alone: no fallback, so "" means the parameter chose nothing. */
const searchParamsDetector = new LanguageDetector({ ...detection, order: ["searchParams"], fallbackLanguage: "" });

/** The language `?lng=` chose (`de`, `DE`, `de-AT`…), read exactly as the page's detection reads
 * it, so the remembered cookie always matches the language the page was rendered in. */
export async function languageFromSearchParams(request: Request): Promise<Language | null> {
  if (!new URL(request.url).searchParams.has("lng")) return null;
  const chosen = await searchParamsDetector.detect(request);
  return isLanguage(chosen) ? chosen : null;
}

export async function detectLanguage(request: Request): Promise<Language> {
  const detected = await detector.detect(request);
  return isLanguage(detected) ? detected : fallbackLanguage;
}

// One instance for code outside React Router's request context (the RPC server), and one per
// language for the pages, all made once. Bundled resources, and nothing on the server changes an
// instance's language (only the browser's instance follows the page, app/root.tsx), so requests
// can share them. remix-i18next's middleware made and initialized a new instance for every
// request: in a CPU profile of the server under load that was an eighth of the time spent on a
// request that renders nothing, and a twentieth of a page's.
const options = {
  resources,
  ns: namespaces,
  defaultNS,
  fallbackLng: fallbackLanguage,
  interpolation: { escapeValue: false },
  initAsync: false,
} as const;
const shared = i18next.createInstance();
void shared.init({ ...options, lng: fallbackLanguage });
const instances = new Map<Language, I18n>(
  supportedLanguages.map((language) => [language, shared.cloneInstance({ lng: language, initAsync: false })]),
);

const localeContext = createContext<Language>();
const instanceContext = createContext<I18n>();

/** Decides the request's language once and hands its instance to loaders, actions and the render. */
export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const language = await detectLanguage(request);
  context.set(localeContext, language);
  context.set(instanceContext, instances.get(language)!);
  return next();
};

export const getLocale = (context: Readonly<RouterContextProvider>): Language => context.get(localeContext);
export const getInstance = (context: Readonly<RouterContextProvider>): I18n => context.get(instanceContext);

/** The request's `t` in a loader or action (default namespace `common`; others by prefix). */
export function translatorFor(context: Readonly<RouterContextProvider>): Translate {
  return getInstance(context).t as unknown as Translate;
}

/** A `t` for one language outside a request (mail, the RPC server, tests): `common` unless named. */
export function fixedT<N extends NamespaceName = "common">(language: Language, namespace?: N): Translate<N> {
  return shared.getFixedT(language, namespace ?? null) as unknown as Translate<N>;
}

/** The instance for rendering outside the i18n middleware (an error page for a request it never saw). */
export function standaloneInstance(language: Language): I18n {
  return instances.get(language)!;
}

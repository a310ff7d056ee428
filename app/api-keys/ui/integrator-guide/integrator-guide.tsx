// The integrator page (/docs/authenticate): public, no sign-in. The frame of the signed-out pages
// (logo, language switch) around a readable column: the call, examples, answers, caching, and the
// secret format. A signed-in owner who came from the keys page gets a way back.
import { Link } from "react-router";
import { INTEGRATOR_PAGE_LINKS } from "./guide-links";
import { LanguageSwitch } from "~/components/language-switch";
import { Logo } from "~/components/logo";
import { useHydrated } from "~/components/use-hydrated";
import { useTranslation } from "~/i18n/use-translation";
import { AnswersSection } from "./answers-section";
import { CachingSection } from "./caching-section";
import { CallSection, ExamplesSection } from "./call-section";
import { SecretFormatSection } from "./secret-format-section";

const SECTIONS = ["call", "examples", "answers", "caching", "format"] as const;

export function IntegratorGuide({ origin, signedIn }: { origin: string; signedIn: boolean }) {
  const { t } = useTranslation("integrators");
  const hydrated = useHydrated();
  const link = "font-semibold text-brand-700 underline-offset-2 hover:underline";
  return (
    // data-hydrated: the browser tests wait for it before using the copy buttons.
    <div
      className="flex min-h-full flex-col bg-gradient-to-b from-brand-50 to-slate-50"
      data-testid="integrator-guide"
      data-hydrated={hydrated ? "true" : undefined}
    >
      <header className="mx-auto flex w-full max-w-4xl items-center justify-between gap-3 px-4 py-4 sm:px-6">
        <Logo />
        <LanguageSwitch />
      </header>
      <main className="mx-auto w-full max-w-4xl flex-1 space-y-6 px-4 pb-16 pt-4 sm:px-6 sm:pt-8">
        <div className="space-y-3">
          {signedIn ? (
            <Link to={INTEGRATOR_PAGE_LINKS.keysPage} className={`text-sm ${link}`}>
              ← {t("backToKeys")}
            </Link>
          ) : null}
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{t("title")}</h1>
          <p className="max-w-prose text-slate-600">{t("intro")}</p>
          <p className="text-sm text-slate-600">
            {/* A plain link: the document is JSON, not a page of the app. */}
            <a href={INTEGRATOR_PAGE_LINKS.openApi} className={link}>
              {t("openApi")}
            </a>{" "}
            · {t("openApiHint")}
          </p>
        </div>
        <nav aria-label={t("toc.label")} className="rounded-lg bg-white/70 px-4 py-3 ring-1 ring-slate-200">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {SECTIONS.map((section) => (
              <li key={section}>
                <a href={`#${section}`} className={link}>
                  {t(`toc.${section}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <CallSection origin={origin} />
        <ExamplesSection origin={origin} />
        <AnswersSection />
        <CachingSection />
        <SecretFormatSection />
      </main>
    </div>
  );
}

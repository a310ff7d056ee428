import type { ReactNode } from "react";
import { href, Link } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { LanguageSwitch } from "./language-switch";
import { Logo } from "./logo";

export function AuthLayout({ heading, children, footer }: { heading: string; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-full flex-col bg-gradient-to-b from-brand-50 to-slate-50">
      <header className="mx-auto flex w-full max-w-7xl items-center justify-between gap-3 px-4 py-4 sm:px-6 lg:px-8">
        <Logo />
        <LanguageSwitch />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-16 pt-8 sm:pt-16">
        <div className="w-full max-w-sm">
          <h1 className="text-center text-2xl font-semibold tracking-tight text-slate-900">{heading}</h1>
          <p className="mt-2 text-center text-sm text-slate-500">{t("tagline")}</p>
          <div className="mt-8 rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-900/5 sm:p-8">{children}</div>
          {footer ? <div className="mt-6 text-center text-sm text-slate-600">{footer}</div> : null}
        </div>
      </main>
    </div>
  );
}

/** The footer of the pages reached from the sign-in page ("forgot password", the reset page). */
export function BackToSignIn() {
  const { t } = useTranslation("auth");
  return (
    <Link to={href("/login")} className="font-semibold text-brand-600 hover:text-brand-700">
      {t("forgot.backToSignIn")}
    </Link>
  );
}

import type { ReactNode } from "react";
import type { KeyOf } from "~/i18n/keys";
import { useTranslation } from "~/i18n/use-translation";
import { href, isRouteErrorResponse, useLocation } from "react-router";
import { signInHref } from "~/lib/safe-redirect";
import { Logo } from "./logo";
import { buttonClass } from "./ui";

const TITLES: Partial<Record<number, KeyOf<"common">>> = {
  400: "errorPage.badRequestTitle",
  401: "errorPage.unauthorizedTitle",
  403: "errorPage.forbiddenTitle",
  404: "errorPage.notFoundTitle",
  409: "errorPage.conflictTitle",
  429: "errorPage.tooManyTitle",
  503: "unavailable.title",
};

/** A `.data` fetch the request edge answered itself (503 while the database is unavailable) reaches
 * the client as text: its `{code, message}` JSON. */
function messageOfText(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === "string" ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

/** Status, title, (already translated) message and sign-in link of a thrown route error. */
function useRouteErrorText(error: unknown) {
  const { t } = useTranslation();
  const location = useLocation();
  let status = 500;
  let message = t("errorPage.unexpected");
  let signIn: string | null = null;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    const body = error.data as { message?: unknown; signIn?: unknown } | string | undefined;
    const generic = status === 404 && (typeof body !== "object" || !body || body.message === t("errors:notFound"));
    if (generic) message = t("errorPage.notFound");
    else if (typeof body === "object" && body && typeof body.message === "string") message = body.message;
    else if (typeof body === "string") message = messageOfText(body) ?? message;
    // "Please sign in (again)": offer the way back to this very page.
    if (status === 401 || (typeof body === "object" && body?.signIn === true))
      signIn = signInHref(`${location.pathname}${location.search}`);
  }
  // 503: the database is unavailable for a moment; the way on is this very page again.
  const retry = status === 503 ? `${location.pathname}${location.search}` : null;
  return { status, title: t(TITLES[status] ?? "errorPage.title"), message, signIn, retry, label: t("errorPage.statusLabel", { status }) };
}

/** The document title: React hoists it into <head>, and the failed route's meta stays silent. */
function ErrorTitle({ title }: { title: string }) {
  const { t } = useTranslation();
  return <title>{`${title} · ${t("appName")}`}</title>;
}

function SignInLink({ href, className }: { href: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <a href={href} className={buttonClass("primary", className)}>
      {t("errorPage.signIn")}
    </a>
  );
}

/** An error inside the dashboard: the navigation stays, so the user can go elsewhere; `children`
 * offers a way back where the page knows one. */
export function ErrorPanel({ error, children }: { error: unknown; children?: ReactNode }) {
  const { t } = useTranslation();
  const { title, message, label, signIn, retry } = useRouteErrorText(error);
  return (
    <div className="rounded-xl bg-white px-6 py-10 text-center shadow-sm ring-1 ring-slate-200" role="alert">
      <ErrorTitle title={title} />
      <p className="text-sm font-semibold tracking-wide text-brand-600">{label}</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
      <p className="mx-auto mt-3 max-w-md text-base leading-7 text-slate-600">{message}</p>
      {signIn ? <SignInLink href={signIn} className="mt-6" /> : null}
      {retry && !signIn ? (
        <a href={retry} className={buttonClass("primary", "mt-6")}>
          {t("unavailable.tryAgain")}
        </a>
      ) : null}
      {children}
    </div>
  );
}

export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const { status, title, message, signIn, retry } = useRouteErrorText(error);
  return (
    <div className="flex min-h-full flex-col bg-gradient-to-b from-brand-50 to-slate-50">
      <header className="mx-auto flex w-full max-w-7xl items-center px-4 py-4 sm:px-6 lg:px-8">
        <Logo />
      </header>
      <ErrorTitle title={title} />
      <main className="flex flex-1 items-center justify-center px-6 pb-24 pt-12">
        <div className="max-w-md text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600">{t("errorPage.statusLabel", { status })}</p>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
          <p className="mt-4 text-base leading-7 text-slate-600">{message}</p>
          {signIn ? (
            <SignInLink href={signIn} className="mt-8" />
          ) : retry ? (
            <a href={retry} className={buttonClass("primary", "mt-8")}>
              {t("unavailable.tryAgain")}
            </a>
          ) : (
            <a href={href("/dashboard")} className={buttonClass("primary", "mt-8")}>
              {t("errorPage.home")}
            </a>
          )}
        </div>
      </main>
    </div>
  );
}

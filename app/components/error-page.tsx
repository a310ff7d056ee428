import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";

const TITLES: Record<number, string> = {
  400: "errorPage.badRequestTitle",
  401: "errorPage.unauthorizedTitle",
  403: "errorPage.forbiddenTitle",
  404: "errorPage.notFoundTitle",
  409: "errorPage.conflictTitle",
  429: "errorPage.tooManyTitle",
};

export function ErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  let status = 500;
  let message = t("errorPage.unexpected");
  if (isRouteErrorResponse(error)) {
    status = error.status;
    const body = error.data as { message?: unknown } | string | undefined;
    if (typeof body === "object" && body && typeof body.message === "string") message = body.message;
    else if (status === 404) message = t("errorPage.notFound");
  }
  return (
    <main className="flex min-h-full items-center justify-center px-6 py-24">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-brand-600">{t("errorPage.statusLabel", { status })}</p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-slate-900">{t(TITLES[status] ?? "errorPage.title")}</h1>
        <p className="mt-4 text-base text-slate-600">{message}</p>
        <a href="/dashboard" className="mt-8 inline-flex rounded-md bg-brand-600 px-3.5 py-2 text-sm font-semibold text-white hover:bg-brand-700">
          {t("errorPage.home")}
        </a>
      </div>
    </main>
  );
}

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, data, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { getLocale, i18nextMiddleware } from "~/i18n/i18next.server";
import { loadSession, rememberLanguage } from "~/web/middleware.server";
import { useNonce } from "~/components/nonce";
import { ErrorPage } from "~/components/error-page";

// Cross-site writes never get here: the request edge refuses them (app/edge/request-edge.server.ts).
export const middleware: Route.MiddlewareFunction[] = [i18nextMiddleware, rememberLanguage, loadSession];

export async function loader({ context }: Route.LoaderArgs) {
  return data({ locale: getLocale(context) });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  // When an action fails the root loader does not run again; keep the language i18next has.
  const { i18n } = useTranslation();
  const locale = rootData?.locale ?? i18n.language ?? "en";
  const nonce = useNonce();
  return (
    <html lang={locale} dir="ltr" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="h-full bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (i18n.language !== loaderData.locale) void i18n.changeLanguage(loaderData.locale);
  }, [loaderData.locale, i18n]);
  // One cache per page session (per render on the server). Loaders stay the page data layer;
  // the cache holds what pages load on demand, such as an audit event's details.
  const [queryClient] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }));
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

// /docs/authenticate: the guide for integrators (public, no sign-in): how a service checks the API
// keys its callers present, with examples for this instance's origin (APP_ORIGIN, else the
// request's). Thin: the page's parts live in app/api-keys/ui/integrator-guide/.
import type { Route } from "./+types/docs.authenticate";
import { IntegratorGuide } from "~/api-keys/ui/integrator-guide/integrator-guide";
import { ErrorPage } from "~/components/error-page";
import { titleMeta } from "~/components/page-title";
import { translatorFor } from "~/i18n/i18next.server";
import { applicationOrigin } from "~/web/cross-site.server";
import { getAuth } from "~/web/guards.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export function loader({ request, context }: Route.LoaderArgs) {
  return {
    title: translatorFor(context)("integrators:title"),
    origin: applicationOrigin(request.url),
    signedIn: getAuth(context) !== null,
  };
}

export default function IntegratorPage({ loaderData }: Route.ComponentProps) {
  return <IntegratorGuide origin={loaderData.origin} signedIn={loaderData.signedIn} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

// Any path no route matches: 404 for every method. Inside the dashboard or the admin tree (the same
// module is mounted there too, app/routes.ts) it renders inside the app shell, so a signed-in person
// keeps the navigation; elsewhere it is the full error page.
import { data, useMatches } from "react-router";
import type { Route } from "./+types/not-found";
import { ErrorPage, ErrorPanel } from "~/components/error-page";
import { translatorFor } from "~/i18n/i18next.server";

function notFound(context: Route.LoaderArgs["context"]) {
  return data({ code: "NOT_FOUND", message: translatorFor(context)("errors:notFound") }, { status: 404 });
}

export function loader({ context }: Route.LoaderArgs) {
  throw notFound(context);
}

export function action({ context }: Route.ActionArgs) {
  throw notFound(context);
}

export default function NotFound() {
  return null;
}

const SHELL_ROUTES = new Set(["routes/dashboard", "routes/admin"]);

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const insideShell = useMatches().some((match) => SHELL_ROUTES.has(match.id));
  return insideShell ? <ErrorPanel error={error} /> : <ErrorPage error={error} />;
}

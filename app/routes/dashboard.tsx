// The dashboard tree's layout: the app shell for any signed-in user. Its action switches the
// active organization (the shell's switcher posts here; /dashboard?index answers the same).
import { ErrorPage } from "~/components/error-page";
import type { Route } from "./+types/dashboard";
import { AppShell } from "~/shell/app-shell";
import { loadAppShell } from "~/shell/app-shell.server";
import { requireUser } from "~/web/guards.server";
import { switchOrganizationAction } from "~/web/switch-organization.server";
import { keepDataWhenOnlyDrawerChanged } from "~/web/revalidation";

export async function loader(args: Route.LoaderArgs) {
  return loadAppShell(requireUser(args));
}

/** Opening an audit event's drawer changes nothing the shell shows. */
export const shouldRevalidate = keepDataWhenOnlyDrawerChanged;

export function action(args: Route.ActionArgs) {
  return switchOrganizationAction(args);
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  return <AppShell loaderData={loaderData} />;
}

/** Outside the app shell: the full error page, in the page's language. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

// /dashboard: the signed-in home (app/shell/dashboard-overview.tsx). Everything it shows comes
// from the layout's loader; the switch form posted here (/dashboard?index) is the layout's action.
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/dashboard._index";
import type { loader as layoutLoader } from "./dashboard";
import { ErrorPanel } from "~/components/error-page";
import { organizationTitleMeta } from "~/components/page-title";
import { translatorFor } from "~/i18n/i18next.server";
import { DashboardOverview } from "~/shell/dashboard-overview";
import { requireUser } from "~/web/guards.server";
import { switchOrganizationAction } from "~/web/switch-organization.server";

export function action(args: Route.ActionArgs) {
  return switchOrganizationAction(args);
}

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

export function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  return {
    title: translatorFor(args.context)("organizations:dashboard.title"),
    user: { name: auth.user.name, twoFactorEnabled: auth.user.twoFactorEnabled },
  };
}

export default function DashboardIndex({ loaderData }: Route.ComponentProps) {
  const layout = useRouteLoaderData<typeof layoutLoader>("routes/dashboard");
  return <DashboardOverview user={loaderData.user} layout={layout} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

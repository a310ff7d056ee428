// /admin itself: the organization list is the admin home.
import { href, redirect } from "react-router";
import { ErrorPanel } from "~/components/error-page";
import type { Route } from "./+types/admin._index";
import { requirePlatformAdmin } from "~/web/guards.server";

export async function loader(args: Route.LoaderArgs) {
  await requirePlatformAdmin(args, { fresh: false });
  throw redirect(href("/admin/organizations"));
}

/** Never rendered (the loader always redirects or refuses); it makes this a page, not a resource
 * route, so a refusal renders the error page instead of raw JSON. */
export default function AdminHome() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

// The admin tree's layout: the same app shell, for platform admins only. Everyone else gets a 404
// for every path under /admin (the tree's existence is nobody else's business); each admin page
// still runs its own guard, which also asks for a fresh session.
import type { Route } from "./+types/admin";
import { requirePlatformAdmin } from "~/auth/guards.server";
import { AppShell } from "~/components/app-shell";
import { ErrorPage } from "~/components/error-page";
import { loadAppShell } from "~/organizations/app-shell.server";

export async function loader(args: Route.LoaderArgs) {
  return loadAppShell(await requirePlatformAdmin(args, { fresh: false }));
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return <AppShell loaderData={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

// The dashboard tree's layout: the app shell for any signed-in user.
import type { Route } from "./+types/dashboard";
import { requireUser } from "~/auth/guards.server";
import { AppShell } from "~/components/app-shell";
import { loadAppShell } from "~/organizations/app-shell.server";

export async function loader(args: Route.LoaderArgs) {
  return loadAppShell(requireUser(args));
}

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  return <AppShell loaderData={loaderData} />;
}

// The admin tree's layout: the same app shell, for platform admins only. Everyone else gets a 404
// for every path under /admin (the tree's existence is nobody else's business); each admin page
// still runs its own guard, which also asks for a fresh session.
import type { Route } from "./+types/admin";
import { requirePlatformAdmin, requireUser } from "~/web/guards.server";
import { AppShell } from "~/shell/app-shell";
import { requestLogContext } from "~/web/context.server";
import { isUuid } from "~/lib/ids";
import { noteRequest } from "~/lib/logger.server";
import { ErrorPage } from "~/components/error-page";
import { loadAppShell } from "~/shell/app-shell.server";

/** Runs before any admin loader or action, and before React Router would answer a POST to an
 * admin page with 405 (which would tell a stranger the page exists): 404 first. */
export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    await requirePlatformAdmin(args, { fresh: false });
    const { organizationId } = args.params as { organizationId?: string };
    if (organizationId && isUuid(organizationId)) noteRequest(args.context.get(requestLogContext), { organizationId });
    return next();
  },
];

export async function loader(args: Route.LoaderArgs) {
  await requirePlatformAdmin(args, { fresh: false });
  return loadAppShell(requireUser(args));
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return <AppShell loaderData={loaderData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPage error={error} />;
}

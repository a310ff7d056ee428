// The frame around the audit log export when a refusal is shown as a page (a browser followed the
// download link; docs/decisions/0032-audit-filters-and-export-page.md): the app shell for whoever
// is signed in, nothing around it for someone who is not (the 401). A pathless layout: the export
// keeps its URL. Its loader runs only for such a page: a download, and a refusal a program asked
// for, are answered by the export's middleware before any loader.
import { Outlet } from "react-router";
import type { Route } from "./+types/audit-export-frame";
import { isFullyAuthenticated } from "~/auth/session.server";
import { AppShell } from "~/shell/app-shell";
import { loadAppShell } from "~/shell/app-shell.server";
import { getAuth } from "~/web/guards.server";

export async function loader({ context }: Route.LoaderArgs) {
  const auth = getAuth(context);
  return { shell: auth && isFullyAuthenticated(auth) ? await loadAppShell(auth) : null };
}

export default function AuditExportFrame({ loaderData }: Route.ComponentProps) {
  return loaderData.shell ? <AppShell loaderData={loaderData.shell} /> : <Outlet />;
}

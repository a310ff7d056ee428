// What the app shell (app/shell/app-shell.tsx) shows around every signed-in page: who is
// signed in, their organizations, the active one, and which navigation entries their role opens.
import type { Auth } from "~/auth/session.server";
import { listOrganizationsWithPlanOf } from "~/organizations/organizations.server";
import { roleHas } from "~/access/permissions";

export async function loadAppShell(auth: Auth) {
  const organizations = await listOrganizationsWithPlanOf(auth.user.id);
  const active = organizations.find((o) => o.id === auth.session.activeOrganizationId) ?? null;
  return {
    user: { name: auth.user.name, email: auth.user.email, isPlatformAdmin: auth.user.isPlatformAdmin },
    organizations,
    active,
    canManageKeys: active ? roleHas(active.role, "apiKey:manage") : false,
    canViewAudit: active ? roleHas(active.role, "audit:view") : false,
  };
}

export type AppShellData = Awaited<ReturnType<typeof loadAppShell>>;

// What the app shell (app/shell/app-shell.tsx) shows around every signed-in page: who is
// signed in, their organizations, the active one, and which navigation entries their role opens.
import type { Auth } from "~/auth/session.server";
import { organizationsOf } from "~/access/memberships.server";
import { roleHas } from "~/access/permissions";

export async function loadAppShell(auth: Auth) {
  const organizations = (await organizationsOf(auth)).map(({ id, name, slug, role, planId, logoId }) => ({
    id,
    name,
    slug,
    role,
    planId,
    logoId,
  }));
  const active = organizations.find((o) => o.id === auth.session.activeOrganizationId) ?? null;
  return {
    user: { name: auth.user.name, email: auth.user.email, isPlatformAdmin: auth.user.isPlatformAdmin },
    organizations,
    active,
    canManageKeys: active ? roleHas(active.role, "apiKey:manage") : false,
    canViewAudit: active ? roleHas(active.role, "audit:view") : false,
    canManageStreams: active ? roleHas(active.role, "auditStream:manage") : false,
    canViewBilling: active ? roleHas(active.role, "billing:view") : false,
  };
}

export type AppShellData = Awaited<ReturnType<typeof loadAppShell>>;

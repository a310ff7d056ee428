// The signed-in navigation: one entry per page the viewer's role opens, each with its icon.
// Rendered twice (the desktop sidebar and the phone menu).
import type { ReactNode } from "react";
import { href, NavLink } from "react-router";
import { cx } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import type { AppShellData } from "~/shell/app-shell.server";

const ICONS: Record<string, ReactNode> = {
  dashboard: <path d="M3 10.5 10 4l7 6.5M5 9v7.25c0 .41.34.75.75.75H8.5v-4.5h3V17h2.75c.41 0 .75-.34.75-.75V9" />,
  settings: (
    <>
      <path d="M8.6 3.2h2.8l.45 2.05 1.5.87 2-.65 1.4 2.42-1.56 1.41v1.74l1.56 1.41-1.4 2.42-2-.65-1.5.87-.45 2.05H8.6l-.45-2.05-1.5-.87-2 .65-1.4-2.42 1.56-1.41V9.3L3.25 7.9l1.4-2.42 2 .65 1.5-.87Z" />
      <circle cx="10" cy="10" r="2.25" />
    </>
  ),
  apiKeys: <path d="M11.8 8.2a3.3 3.3 0 1 1-1.03-2.4M11.8 8.2 17 13.4V16h-2.6v-1.6h-1.6v-1.6h-1.6l-1.65-1.65" />,
  members: (
    <path d="M7.5 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Zm-4.5 7c0-2.5 2-4.5 4.5-4.5S12 13.5 12 16M13 4.3a2.5 2.5 0 0 1 0 4.4M14.5 11.8c1.5.6 2.5 2.2 2.5 4.2" />
  ),
  billing: (
    <path d="M3 6.75A1.75 1.75 0 0 1 4.75 5h10.5c.97 0 1.75.78 1.75 1.75v6.5c0 .97-.78 1.75-1.75 1.75H4.75A1.75 1.75 0 0 1 3 13.25v-6.5ZM3 8.5h14M6 12h3" />
  ),
  auditLog: <path d="M6 4h8.25c.41 0 .75.34.75.75v10.5c0 .41-.34.75-.75.75H5.75a.75.75 0 0 1-.75-.75V5M8 8h5M8 11h5M8 14h3" />,
  auditStreams: <path d="M3.5 6h7M3.5 10h9M3.5 14h7M13 4.5 16.5 6 13 7.5M15 8.5l1.5 1.5-1.5 1.5M13 12.5l3.5 1.5-3.5 1.5" />,
  account: <path d="M10 10a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-5.5 6.5c.4-2.8 2.7-4.5 5.5-4.5s5.1 1.7 5.5 4.5" />,
  security: <path d="M10 3 4.5 5v4.6c0 3.3 2.3 6 5.5 7.4 3.2-1.4 5.5-4.1 5.5-7.4V5L10 3Zm-2.2 7.1 1.6 1.6 3-3.2" />,
  admin: <path d="M4 5.5h12M4 10h12M4 14.5h7M15 13l1.5 1.5L19 12" />,
};

function NavIcon({ name }: { name: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="h-5 w-5 shrink-0"
    >
      {ICONS[name]}
    </svg>
  );
}

export function NavItems({ loaderData }: { loaderData: AppShellData }) {
  const { t } = useTranslation();
  const items = [
    { to: href("/dashboard"), icon: "dashboard", label: t("nav.dashboard"), end: true, show: true },
    {
      to: href("/dashboard/organization-settings"),
      icon: "settings",
      label: t("nav.organizationSettings"),
      end: true,
      show: Boolean(loaderData.active),
    },
    {
      to: href("/dashboard/organization-settings/members"),
      icon: "members",
      label: t("nav.members"),
      end: false,
      show: Boolean(loaderData.active),
    },
    {
      to: href("/dashboard/organization-settings/api-keys"),
      icon: "apiKeys",
      label: t("nav.apiKeys"),
      end: false,
      show: loaderData.canManageKeys,
    },
    {
      to: href("/dashboard/organization-settings/audit-log"),
      icon: "auditLog",
      label: t("nav.auditLog"),
      end: false,
      show: loaderData.canViewAudit,
    },
    {
      to: href("/dashboard/organization-settings/audit-streams"),
      icon: "auditStreams",
      label: t("auditStreams:nav"),
      end: false,
      show: loaderData.canManageStreams,
    },
    {
      to: href("/dashboard/organization-settings/billing"),
      icon: "billing",
      label: t("nav.billing"),
      end: false,
      show: loaderData.canViewBilling,
    },
    { to: href("/dashboard/account"), icon: "account", label: t("nav.account"), end: true, show: true },
    { to: href("/dashboard/account/security"), icon: "security", label: t("nav.security"), end: false, show: true },
    { to: href("/admin"), icon: "admin", label: t("admin:nav"), end: false, show: loaderData.user.isPlatformAdmin },
  ];
  return (
    <ul className="space-y-1">
      {items
        .filter((item) => item.show)
        .map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              className={({ isActive }) =>
                cx(
                  "group flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors",
                  isActive ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
                )
              }
            >
              {({ isActive }) => (
                <>
                  <span className={isActive ? "text-brand-600" : "text-slate-400 group-hover:text-slate-600"}>
                    <NavIcon name={item.icon} />
                  </span>
                  {/* Wraps rather than cutting a label off: German compounds ("Organisationseinstellungen")
                      are long, and a truncated label hides which page it is. */}
                  <span className="min-w-0 hyphens-auto [overflow-wrap:break-word]">{item.label}</span>
                </>
              )}
            </NavLink>
          </li>
        ))}
    </ul>
  );
}

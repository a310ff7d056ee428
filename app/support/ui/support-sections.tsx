// The support console's two sections, above each of its pages.
import { href, NavLink } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { cx } from "~/components/ui";

export function SupportSections() {
  const { t } = useTranslation("admin");
  const sections = [
    { to: href("/admin/organizations"), label: t("sections.organizations") },
    { to: href("/admin/support-records"), label: t("sections.records") },
  ];
  return (
    <nav aria-label={t("sections.label")} className="flex flex-wrap gap-2 border-b border-slate-200 pb-3">
      {sections.map(({ to, label }) => (
        <NavLink
          key={to}
          to={to}
          className={({ isActive }) =>
            cx(
              "rounded-md px-3 py-1.5 text-sm font-medium",
              isActive ? "bg-brand-50 text-brand-700 ring-1 ring-brand-200" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900",
            )
          }
        >
          {label}
        </NavLink>
      ))}
    </nav>
  );
}

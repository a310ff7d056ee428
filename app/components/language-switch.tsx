import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { supportedLanguages } from "~/i18n/config";
import { cx } from "./ui";

/** Plain links (?lng=xx): they work without JavaScript and the server remembers the choice. */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <nav aria-label={t("language.label")} className={cx("flex items-center gap-1 text-sm", className)}>
      {supportedLanguages.map((language) => {
        const params = new URLSearchParams(location.search);
        params.set("lng", language);
        const active = i18n.language === language;
        return (
          <a
            key={language}
            href={`${location.pathname}?${params.toString()}`}
            hrefLang={language}
            lang={language}
            aria-current={active ? "true" : undefined}
            className={cx("rounded px-2 py-1 font-medium", active ? "bg-slate-900 text-white" : "text-slate-600 hover:bg-slate-100")}
          >
            {t(`language.${language}`)}
          </a>
        );
      })}
    </nav>
  );
}

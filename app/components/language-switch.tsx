import { useTranslation } from "~/i18n/use-translation";
import { useLocation } from "react-router";
import { supportedLanguages } from "~/i18n/config";
import { cx } from "./ui";

/** Plain links (?lng=xx): they work without JavaScript and the server remembers the choice. They
 * keep the address's query, except values `omitValue` names: a secret pasted into a search without
 * JavaScript is in the address, and the page must not repeat it (decision 0059). */
export function LanguageSwitch({ className, omitValue }: { className?: string; omitValue?: (value: string) => boolean }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <nav aria-label={t("language.label")} className={cx("flex items-center gap-2 text-sm", className)}>
      <svg
        viewBox="0 0 20 20"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.4"
        aria-hidden="true"
        className="h-4 w-4 shrink-0 text-slate-400"
      >
        <circle cx="10" cy="10" r="7.25" />
        <path d="M2.75 10h14.5M10 2.75c2 2 3 4.4 3 7.25s-1 5.25-3 7.25c-2-2-3-4.4-3-7.25s1-5.25 3-7.25Z" />
      </svg>
      <ul className="flex items-center gap-0.5 rounded-lg bg-slate-100 p-0.5">
        {supportedLanguages.map((language) => {
          const params = new URLSearchParams(location.search);
          if (omitValue) for (const [name, value] of [...params]) if (omitValue(value)) params.delete(name, value);
          params.set("lng", language);
          const active = i18n.language === language;
          return (
            <li key={language}>
              <a
                href={`${location.pathname}?${params.toString()}`}
                hrefLang={language}
                lang={language}
                aria-current={active ? "true" : undefined}
                className={cx(
                  "block rounded-md px-2.5 py-1 font-medium transition-colors",
                  active ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-900/5" : "text-slate-600 hover:text-slate-900",
                )}
              >
                {t(`language.${language}`)}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

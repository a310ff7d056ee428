import { href } from "react-router";
import { useTranslation } from "~/i18n/use-translation";

export function Logo() {
  const { t } = useTranslation();
  return (
    <a href={href("/dashboard")} className="flex items-center gap-2.5 rounded-md text-[15px] font-semibold tracking-tight text-slate-900">
      <img src="/favicon.svg" alt="" width={28} height={28} className="h-7 w-7" />
      <span>{t("appName")}</span>
    </a>
  );
}

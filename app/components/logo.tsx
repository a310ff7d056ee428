import { useTranslation } from "react-i18next";

export function Logo() {
  const { t } = useTranslation();
  return (
    <a href="/dashboard" className="flex items-center gap-2 font-semibold text-slate-900">
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span>{t("appName")}</span>
    </a>
  );
}

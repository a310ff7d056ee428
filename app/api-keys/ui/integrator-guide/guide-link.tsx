// The keys page's link to the integrator page: owners hand it to whoever builds the integration.
import { Link } from "react-router";
import { buttonClass } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { INTEGRATOR_PAGE_LINKS } from "./guide-links";

export function IntegratorGuideLink() {
  const { t } = useTranslation("integrators");
  return (
    <Link to={INTEGRATOR_PAGE_LINKS.page} className={buttonClass("secondary", "w-full sm:w-auto")}>
      {t("keysPageLink")}
    </Link>
  );
}

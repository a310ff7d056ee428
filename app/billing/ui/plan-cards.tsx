// The plans side by side: each card names the plan, who it is for, its price per month and what it
// includes (from the plan catalog, app/plans/catalog.ts), and the current plan is marked in words
// and by its frame. The plans look different at a glance: each has its own accent, and the price
// is the largest text on the card.
import { Badge, cx } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";
import { PLAN_FLAGS, planOffering, type PlanHighlight } from "~/plans/catalog";
import { ConfirmTrigger, type PlanOffer } from "./billing-page";

/** A plan's accent (the stripe on top of its card); a plan the catalog dropped gets the neutral one. */
const ACCENTS: Record<string, string> = { free: "bg-slate-300", team: "bg-brand-500", enterprise: "bg-amber-500" };

/** Plan flags are highlights under the same name (`auditExport`): a plan without one lists it as not included. */
const isFlag = (highlight: PlanHighlight): highlight is (typeof PLAN_FLAGS)[number] =>
  (PLAN_FLAGS as readonly string[]).includes(highlight);

function Mark({ included }: { included: boolean }) {
  return (
    <span aria-hidden="true" className={cx("w-4 shrink-0 text-center font-semibold", included ? "text-emerald-600" : "text-slate-400")}>
      {included ? "✓" : "–"}
    </span>
  );
}

function PlanCard({
  plan,
  current,
  currentPlanName,
  canChange,
}: {
  plan: PlanOffer;
  current: boolean;
  currentPlanName: string;
  canChange: boolean;
}) {
  const { t, i18n } = useTranslation("billing");
  const offering = planOffering(plan.id);
  const price = offering
    ? new Intl.NumberFormat(i18n.language, { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(
        offering.monthlyPriceUsd,
      )
    : null;
  const highlights = offering?.highlights ?? [];
  const missingFlags = PLAN_FLAGS.filter((flag) => !plan.features[flag]);
  return (
    <li
      data-plan={plan.id}
      data-current={current ? "true" : undefined}
      aria-current={current ? "true" : undefined}
      className={cx(
        "relative flex flex-col gap-4 overflow-hidden rounded-xl bg-white p-5 pt-6",
        current ? "ring-2 ring-brand-600" : "ring-1 ring-slate-200",
      )}
    >
      <span aria-hidden="true" className={cx("absolute inset-x-0 top-0 h-1.5", ACCENTS[plan.id] ?? "bg-slate-200")} />
      <div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="text-lg font-semibold text-slate-900">{plan.name}</h3>
          {current ? <Badge tone="brand">{t("plans.current")}</Badge> : null}
        </div>
        {offering ? <p className="mt-1 text-sm text-slate-600">{t(`offer.taglines.${plan.id}`, { defaultValue: "" })}</p> : null}
      </div>
      {price ? (
        <p data-testid="plan-price">
          <span aria-hidden="true">
            <span className="text-3xl font-bold tracking-tight text-slate-900">{price}</span>{" "}
            <span className="text-sm text-slate-500">{t("offer.perMonth")}</span>
          </span>
          <span className="sr-only">{t("offer.price", { price })}</span>
        </p>
      ) : null}
      <ul className="flex-1 space-y-2 border-t border-slate-100 pt-4 text-sm">
        {highlights.map((highlight) => (
          <li
            key={highlight}
            className="flex items-start gap-2 text-slate-800"
            data-highlight={highlight}
            {...(isFlag(highlight) ? { "data-feature": highlight, "data-included": "true" } : {})}
          >
            <Mark included />
            <span>
              {t(`offer.highlights.${highlight}`)}
              <span className="sr-only">: {t("plans.included")}</span>
            </span>
          </li>
        ))}
        {missingFlags.map((flag) => (
          <li key={flag} className="flex items-start gap-2 text-slate-500" data-feature={flag} data-included="false">
            <Mark included={false} />
            <span>
              {t(`plans.features.${flag}`)}
              <span className="sr-only">: {t("plans.notIncluded")}</span>
            </span>
          </li>
        ))}
      </ul>
      {canChange && !current ? (
        <div>
          <ConfirmTrigger
            confirm={{ intent: "checkout", plan, from: currentPlanName }}
            variant={plan.id === "free" ? "secondary" : "primary"}
          />
        </div>
      ) : null}
    </li>
  );
}

export function PlanList({
  plans,
  currentPlanId,
  currentPlanName,
  canChange,
}: {
  plans: PlanOffer[];
  currentPlanId: string;
  currentPlanName: string;
  canChange: boolean;
}) {
  const { t } = useTranslation("billing");
  return (
    <section aria-labelledby="billing-plans-title" className="space-y-3">
      <div>
        <h2 id="billing-plans-title" className="text-base font-semibold text-slate-900">
          {t("plans.title")}
        </h2>
        <p className="text-sm text-slate-500">{t("plans.description")}</p>
      </div>
      <ul className="grid gap-4 md:grid-cols-3" data-testid="billing-plans">
        {plans.map((plan) => (
          <PlanCard key={plan.id} plan={plan} current={plan.id === currentPlanId} currentPlanName={currentPlanName} canChange={canChange} />
        ))}
      </ul>
    </section>
  );
}

// The page a mailed key link lands on when another organization is active (decision 0058): it
// names both organizations and asks before switching. The switch is a POST (the request edge
// refuses cross-site ones), so no other site can change which organization a person works in.
import { Form, href } from "react-router";
import { Button, ButtonLink, Card, PageHeader } from "~/components/ui";
import { useTranslation } from "~/i18n/use-translation";

export function OpenInOrganization({ organization, current, q }: { organization: string; current: string | null; q: string }) {
  const { t } = useTranslation("apiKeys");
  return (
    <div className="max-w-xl" data-testid="open-in-organization">
      <PageHeader title={t("openInOrganization.title", { organization })} />
      <Card>
        <p className="text-sm text-slate-700">
          {current ? t("openInOrganization.body", { organization, current }) : t("openInOrganization.bodyNoneActive", { organization })}
        </p>
        <Form method="post" className="mt-5 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <input type="hidden" name="intent" value="switch" />
          <input type="hidden" name="q" value={q} />
          <Button type="submit" className="w-full sm:w-auto">
            {t("openInOrganization.switch", { organization })}
          </Button>
          <ButtonLink to={href("/dashboard")} variant="secondary" className="w-full sm:w-auto">
            {current ? t("openInOrganization.stay", { current }) : t("openInOrganization.dashboard")}
          </ButtonLink>
        </Form>
      </Card>
    </div>
  );
}

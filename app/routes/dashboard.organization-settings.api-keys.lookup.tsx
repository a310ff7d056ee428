// The leaked-key lookup: paste a secret, learn which key of the organization it is, revoke it.
// Thin: the rule is findOwnKeyBySecret (app/api-keys/key-by-secret.server.ts), the parts are in
// app/api-keys/ui/key-lookup.tsx. A POST form, so the secret never enters a URL, a history entry or
// a log line; works without JavaScript. Owners and admins (apiKey:manage), as on the keys page.
import { useState } from "react";
import { data } from "react-router";
import type { Route } from "./+types/dashboard.organization-settings.api-keys.lookup";
import { roleHas } from "~/access/permissions";
import { findOwnKeyBySecret } from "~/api-keys/key-by-secret.server";
import { lookupFormSchema } from "~/api-keys/lookup-schema";
import { BackToKeys, LookupForm, LookupResult, type LookupActionData } from "~/api-keys/ui/key-lookup";
import { ErrorPanel } from "~/components/error-page";
import { organizationTitleMeta } from "~/components/page-title";
import { PageHeader } from "~/components/ui";
import { useHydrated } from "~/components/use-hydrated";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { noStoreFormHeaders, parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";

/** The pasted secret must not come back in any answer, valid or not. */
const HIDDEN = ["secret"];

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

/** An answer names a key found by its secret: keep it out of every cache. A refusal's own headers
 * (Retry-After on a 429) go along: what this returns is all the page's answer carries. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return noStoreFormHeaders(actionHeaders);
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "apiKey:manage");
  return {
    title: translatorFor(args.context)("apiKeys:lookup.title"),
    organizationName: access.organization.name,
    /** The history link leads to the audit log: only for roles that may read it. */
    canViewHistory: roleHas(access.role, "audit:view"),
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args, "apiKey:manage");
  const { submission } = await parseForm(args, lookupFormSchema);
  const noStore = new Headers({ "Cache-Control": "no-store" });
  if (submission.status !== "success")
    return data<LookupActionData>({ reply: submission.reply({ hideFields: HIDDEN }), found: null }, { status: 400, headers: noStore });
  const secret = submission.value.secret;
  const result = await withFormErrors(args.context, submission, () => findOwnKeyBySecret(access, secret), { hideFields: HIDDEN });
  if (!result.ok) return data<LookupActionData>({ reply: result.reply, found: null }, result.init);
  return data<LookupActionData>({ reply: submission.reply({ resetForm: true }), found: { key: result.value } }, { headers: noStore });
}

export default function KeyLookupPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("apiKeys");
  const hydrated = useHydrated();
  // The answer shown is the last submission's; once the field is edited it would sit under a
  // secret it is not about (a new paste refused in the browser, say), so it is hidden until the next.
  const [editedAfter, setEditedAfter] = useState<LookupActionData | undefined>(undefined);
  const answer = actionData && editedAfter !== actionData ? actionData.found : null;
  return (
    // data-hydrated: the browser tests wait for it before using the revoke dialog.
    <div className="space-y-6" data-testid="key-lookup-page" data-hydrated={hydrated ? "true" : undefined}>
      <PageHeader
        title={t("lookup.title")}
        description={t("lookup.description", { organization: loaderData.organizationName })}
        actions={<BackToKeys />}
      />
      <LookupForm lastResult={actionData?.reply} onEdit={() => setEditedAfter(actionData)} />
      {answer ? <LookupResult found={answer} canViewHistory={loaderData.canViewHistory} /> : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

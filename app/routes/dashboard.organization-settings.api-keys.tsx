// The keys page: the keys in use, issue, rotate, revoke, and the paged history of revoked keys.
// Thin: the rules live in app/api-keys/, the page's parts in app/api-keys/ui/. Works without
// JavaScript: rotate and revoke confirm on a `?confirm=rotate&key=<id>` view (with JavaScript the
// same confirmation opens in a dialog), and the revoked history pages with plain links
// (`?revokedCursor=…`); the filters are a GET form (`?q=&scope=&state=&sort=`, decision 0059).
// A secret appears only in the action's answer (never in the loader), so it
// is shown exactly once.
import { useMemo } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { data, isRouteErrorResponse } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/dashboard.organization-settings.api-keys";
import { issueKey, revokeKey, rotateKey } from "~/api-keys/api-keys.server";
import { loadKeysPage, parseKeysPageParams } from "~/api-keys/keys-page.server";
import { MAX_UNREVOKED_KEYS, issueKeyFormSchema, keyActionFormSchema } from "~/api-keys/schemas";
import { IssueForm } from "~/api-keys/ui/issue-key-form";
import { ConfirmPanel } from "~/api-keys/ui/key-confirmation";
import { IntegratorGuideLink } from "~/api-keys/ui/integrator-guide/guide-link";
import { KeyList } from "~/api-keys/ui/key-list";
import { KeyFiltersForm, NoKeyMatches } from "~/api-keys/ui/key-filters-form";
import { ISSUE_KEY_HREF, KEY_LOOKUP_PATH, KEYS_PAGE_PATH, type KeyActionData, type KeyActionOutcome } from "~/api-keys/ui/key-page";
import { RevokedKeyList } from "~/api-keys/ui/revoked-key-list";
import { SecretPanel } from "~/api-keys/ui/secret-panel";
import { ErrorPanel } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { organizationTitleMeta } from "~/components/page-title";
import { Alert, ButtonLink, PageHeader, buttonClass } from "~/components/ui";
import { useHydrated } from "~/components/use-hydrated";
import { translatorFor } from "~/i18n/i18next.server";
import { toJsonPayload, useJsonPayload } from "~/lib/json-payload";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";
import { orHttpError } from "~/web/http-errors.server";

const actionSchema = z.discriminatedUnion("intent", [issueKeyFormSchema, keyActionFormSchema]);

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

/** The page can carry a freshly issued secret: never cache it anywhere. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "apiKey:manage");
  const { keys, revoked, ...page } = await orHttpError(args.context, () => loadKeysPage(access, new URL(args.request.url).searchParams));
  return {
    title: translatorFor(args.context)("apiKeys:title"),
    organizationName: access.organization.name,
    ...page,
    // The two lists as JSON text: encoding them value by value was a fifth of the page's cost.
    keys: toJsonPayload(keys),
    revoked: { ...revoked, keys: toJsonPayload(revoked.keys) },
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args, "apiKey:manage");
  // The page answering this post reads the same params: refused before any change, not after.
  await orHttpError(args.context, async () => parseKeysPageParams(new URL(args.request.url).searchParams));
  const { submission, formData } = await parseForm(args, actionSchema);
  const intent = typeof formData.get("intent") === "string" ? String(formData.get("intent")) : null;
  const noStore = new Headers({ "Cache-Control": "no-store" });
  if (submission.status !== "success")
    return data<KeyActionData>({ reply: submission.reply(), intent, outcome: null }, { status: 400, headers: noStore });
  const input = submission.value;
  const result = await withFormErrors(args.context, submission, async (): Promise<KeyActionOutcome> => {
    if (input.intent === "issue") {
      const { key, secret } = await issueKey(access, { name: input.name, scopes: input.scopes, expiresAt: input.expiresOn ?? null });
      return { intent: "issue", name: key.name, secret, prefix: key.prefix };
    }
    if (input.intent === "rotate") {
      const { key, secret } = await rotateKey(access, input.keyId);
      return { intent: "rotate", name: key.name, secret, prefix: key.prefix };
    }
    return { intent: "revoke", name: (await revokeKey(access, input.keyId)).name };
  });
  if (!result.ok) return data<KeyActionData>({ reply: result.reply, intent, outcome: null }, result.init);
  return data<KeyActionData>({ reply: submission.reply({ resetForm: true }), intent, outcome: result.value }, { headers: noStore });
}

export default function ApiKeysPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("apiKeys");
  const hydrated = useHydrated();
  const outcome = actionData?.outcome ?? null;
  const wasIssue = actionData?.intent === "issue";
  const formErrors = actionData?.reply.error?.[""] ?? undefined;
  const { canViewHistory, filters, counts, unrevokedCount } = loaderData;
  const keys = useJsonPayload(loaderData.keys);
  const revokedKeys = useJsonPayload(loaderData.revoked.keys);
  const revoked = useMemo(() => ({ ...loaderData.revoked, keys: revokedKeys }), [loaderData.revoked, revokedKeys]);
  const limitReached = unrevokedCount >= MAX_UNREVOKED_KEYS;
  const hasRevoked = revoked.keys.length > 0 || !revoked.isFirstPage;
  const noMatch = counts !== null && counts.matching === 0;
  return (
    // data-hydrated: the browser tests wait for it before using the dialogs and the copy button.
    <div className="space-y-6" data-testid="api-keys-page" data-hydrated={hydrated ? "true" : undefined}>
      <PageHeader
        title={t("title")}
        description={t("description", { organization: loaderData.organizationName })}
        actions={
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-center sm:gap-3">
            <IntegratorGuideLink />
            <a href={KEY_LOOKUP_PATH} className={buttonClass("secondary", "w-full sm:w-auto")}>
              {t("lookup.link")}
            </a>
            {unrevokedCount > 0 && !limitReached ? (
              <a href={ISSUE_KEY_HREF} className={buttonClass("primary", "w-full sm:w-auto")}>
                {t("issue.heading")}
              </a>
            ) : null}
          </div>
        }
      />
      {outcome && "secret" in outcome ? <SecretPanel result={outcome} /> : null}
      {outcome?.intent === "revoke" ? <Alert tone="success">{t("revoke.done", { name: outcome.name })}</Alert> : null}
      {formErrors && !wasIssue ? <FormErrors errors={formErrors} /> : null}
      {loaderData.confirm ? <ConfirmPanel confirm={loaderData.confirm} /> : null}
      {unrevokedCount > 0 || hasRevoked || counts ? (
        <KeyFiltersForm filters={filters} shortened={loaderData.queryShortened} counts={counts} />
      ) : null}
      {noMatch ? <NoKeyMatches /> : null}
      {noMatch || filters.state === "revoked" ? null : (
        <KeyList
          keys={keys}
          hasRevoked={hasRevoked}
          canViewHistory={canViewHistory}
          unrevokedCount={unrevokedCount}
          filtered={counts !== null}
        />
      )}
      <IssueForm lastResult={wasIssue ? actionData?.reply : undefined} limitReached={limitReached} />
      {noMatch || filters.state === "active" || filters.state === "expired" ? null : (
        <RevokedKeyList revoked={revoked} canViewHistory={canViewHistory} filters={filters} />
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation("apiKeys");
  // A bad page link (e.g. a mangled revokedCursor): offer the page itself.
  const badLink = isRouteErrorResponse(error) && error.status === 400;
  return (
    <div className="space-y-4">
      <ErrorPanel error={error} />
      {badLink ? (
        <p className="text-center">
          <ButtonLink to={KEYS_PAGE_PATH} variant="secondary">
            {t("revoked.backToKeys")}
          </ButtonLink>
        </p>
      ) : null}
    </div>
  );
}

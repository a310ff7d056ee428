// Audit log streaming: the organization's streams and the form that adds one (owners and admins).
// Thin: the rules live in app/audit-streams/, the page's parts in app/audit-streams/ui/. A new
// webhook's signing secret appears only in the create action's answer (never in the loader), so it
// is shown exactly once. While the plan or billing stops streaming, the page says why instead of
// offering the form; existing streams stay listed.
import { data } from "react-router";
import type { Route } from "./+types/dashboard.organization-settings.audit-streams";
import { MAX_STREAMS, createStream, listStreams } from "~/audit-streams/streams.server";
import { createStreamFormSchema } from "~/audit-streams/stream-forms";
import { CreateStreamCard } from "~/audit-streams/ui/create-stream-form";
import { StreamList } from "~/audit-streams/ui/stream-list";
import type { StreamListActionData } from "~/audit-streams/ui/stream-page";
import { StreamSecretPanel } from "~/audit-streams/ui/stream-secret-panel";
import { StreamingBlocked } from "~/audit-streams/ui/streaming-blocked";
import { streamingBlockedNote } from "~/audit-streams/ui/streaming-blocked-note.server";
import { ErrorPanel } from "~/components/error-page";
import { organizationTitleMeta } from "~/components/page-title";
import { Alert, PageHeader } from "~/components/ui";
import { useHydrated } from "~/components/use-hydrated";
import { translatorFor } from "~/i18n/i18next.server";
import { useTranslation } from "~/i18n/use-translation";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

/** The page can carry a freshly generated signing secret: never cache it anywhere. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "auditStream:manage");
  return {
    title: translatorFor(args.context)("auditStreams:title"),
    organizationName: access.organization.name,
    streams: await listStreams(access),
    blocked: streamingBlockedNote(access),
    limit: MAX_STREAMS,
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args, "auditStream:manage");
  const { submission } = await parseForm(args, createStreamFormSchema);
  const noStore = new Headers({ "Cache-Control": "no-store" });
  // Credentials typed into the form are never sent back, even when the form is refused.
  const hideFields = ["webhook.secret", "splunk.token", "datadog.apiKey", "s3.accessKeyId", "s3.secretAccessKey"];
  if (submission.status !== "success")
    return data<StreamListActionData>({ reply: submission.reply({ hideFields }), created: null }, { status: 400, headers: noStore });
  const input = submission.value;
  const result = await withFormErrors(
    args.context,
    submission,
    () => createStream(access, { name: input.name, ...input.destination, start: input.start }),
    { hideFields },
  );
  if (!result.ok) return data<StreamListActionData>({ reply: result.reply, created: null }, result.init);
  const { stream, secret } = result.value;
  return data<StreamListActionData>(
    { reply: submission.reply({ resetForm: true }), created: { streamId: stream.id, name: stream.name, secret } },
    { headers: noStore },
  );
}

export default function AuditStreamsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auditStreams");
  const hydrated = useHydrated();
  const created = actionData?.created ?? null;
  const { streams, blocked, limit } = loaderData;
  return (
    // data-hydrated: the browser tests wait for it before using the kind choice and the copy button.
    <div className="space-y-6" data-testid="audit-streams-page" data-hydrated={hydrated ? "true" : undefined}>
      <PageHeader title={t("title")} description={t("description", { organization: loaderData.organizationName })} />
      {created?.secret ? <StreamSecretPanel streamId={created.streamId} name={created.name} secret={created.secret} /> : null}
      {created && !created.secret ? <Alert tone="success">{t("created", { name: created.name })}</Alert> : null}
      {blocked ? <StreamingBlocked note={blocked} /> : null}
      <StreamList streams={streams} blocker={blocked?.blocker ?? null} limit={limit} canCreate={!blocked} />
      {blocked ? null : (
        // A new stream starts the form afresh (its fields keep what was typed only when refused).
        <CreateStreamCard
          key={created?.streamId ?? "create"}
          lastResult={created ? undefined : actionData?.reply}
          limit={limit}
          limitReached={streams.length >= limit}
        />
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

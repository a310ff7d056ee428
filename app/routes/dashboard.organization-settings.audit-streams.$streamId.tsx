// One stream's delivery page (owners and admins): its state and figures, recent failures, editing,
// pause and resume, a test event, restarting delivery and deleting. Thin: the rules live in
// app/audit-streams/, the parts in app/audit-streams/ui/. Works without JavaScript: restart and
// delete confirm on a `?confirm=restart` view (a dialog with JavaScript). An unknown stream, or
// another organization's, is the app's 404.
import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/dashboard.organization-settings.audit-streams.$streamId";
import { deleteStream, getStream, testStream, updateStream } from "~/audit-streams/streams.server";
import { editStreamFormSchema, streamActionFormSchema } from "~/audit-streams/stream-forms";
import { EditStreamForm } from "~/audit-streams/ui/edit-stream-form";
import { StreamActions, StreamConfirmPanel } from "~/audit-streams/ui/stream-actions";
import { StreamDelivery } from "~/audit-streams/ui/stream-delivery";
import { STREAMS_PAGE_PATH, type StreamPageActionData, type StreamPageOutcome } from "~/audit-streams/ui/stream-page";
import { StreamOutcome } from "~/audit-streams/ui/stream-outcome";
import { StreamingBlocked } from "~/audit-streams/ui/streaming-blocked";
import { streamingBlockedNote } from "~/audit-streams/ui/streaming-blocked-note.server";
import { ErrorPanel } from "~/components/error-page";
import { FormErrors } from "~/components/form-errors";
import { organizationTitleMeta } from "~/components/page-title";
import { ButtonLink, PageHeader } from "~/components/ui";
import { useHydrated } from "~/components/use-hydrated";
import { useTranslation } from "~/i18n/use-translation";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireActiveOrganization } from "~/web/guards.server";
import { orHttpError } from "~/web/http-errors.server";

export function meta({ loaderData, matches }: Route.MetaArgs) {
  return organizationTitleMeta({ loaderData, matches });
}

/**
 * A refused change reloads nothing (React Router's default after a 4xx), except a conflict: then
 * the stream changed meanwhile, and the page must show what is stored now.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

const confirmParam = z.enum(["restart", "delete"]).nullable().catch(null);

export async function loader(args: Route.LoaderArgs) {
  const access = await requireActiveOrganization(args, "auditStream:manage");
  const stream = await orHttpError(args.context, () => getStream(access, args.params.streamId));
  return {
    title: stream.name,
    stream,
    blocked: streamingBlockedNote(access),
    confirm: confirmParam.parse(new URL(args.request.url).searchParams.get("confirm")),
  };
}

export async function action(args: Route.ActionArgs) {
  const access = await requireActiveOrganization(args, "auditStream:manage");
  // Read first: an unknown stream is a 404 before its form is looked at, and an edit needs the kind.
  const stream = await orHttpError(args.context, () => getStream(access, args.params.streamId));
  const schema = z.union([editStreamFormSchema(stream.kind), streamActionFormSchema]);
  const { submission, formData } = await parseForm(args, schema);
  const intent = typeof formData.get("intent") === "string" ? String(formData.get("intent")) : null;
  // Credentials typed into the edit form are never sent back.
  const hideFields = [
    "destination.secret",
    "destination.token",
    "destination.apiKey",
    "destination.accessKeyId",
    "destination.secretAccessKey",
  ];
  if (submission.status !== "success")
    return data<StreamPageActionData>({ reply: submission.reply({ hideFields }), intent, outcome: null }, { status: 400 });
  const input = submission.value;
  const result = await withFormErrors(
    args.context,
    submission,
    async (): Promise<StreamPageOutcome | null> => {
      if (!("intent" in input)) {
        await updateStream(access, stream.id, { version: input.version, name: input.name, destination: input.destination });
        return { intent: "update" };
      }
      if (input.intent === "delete") {
        await deleteStream(access, stream.id);
        return null;
      }
      if (input.intent === "test") return { intent: "test", result: await testStream(access, stream.id) };
      if (input.intent === "restart") await updateStream(access, stream.id, { version: input.version, start: input.start });
      else await updateStream(access, stream.id, { version: input.version, paused: input.intent === "pause" });
      return { intent: input.intent };
    },
    { hideFields },
  );
  if (!result.ok)
    return data<StreamPageActionData>({ reply: result.reply, intent, outcome: null, conflict: result.init.status === 409 }, result.init);
  if (result.value === null) throw redirect(STREAMS_PAGE_PATH);
  return data<StreamPageActionData>({ reply: submission.reply({ resetForm: true }), intent, outcome: result.value });
}

export default function StreamPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auditStreams");
  const hydrated = useHydrated();
  const { stream, blocked, confirm } = loaderData;
  const blocker = blocked?.blocker ?? null;
  const wasEdit = actionData?.intent === "update";
  const formErrors = actionData?.reply.error?.[""] ?? undefined;
  const dateErrors = actionData?.intent === "restart" ? (actionData.reply.error?.startDate ?? undefined) : undefined;
  return (
    <div className="space-y-6" data-testid="audit-stream-page" data-hydrated={hydrated ? "true" : undefined}>
      <PageHeader
        title={stream.name}
        description={t(`kinds.${stream.kind}`)}
        actions={
          <ButtonLink to={STREAMS_PAGE_PATH} variant="secondary">
            {t("backToList")}
          </ButtonLink>
        }
      />
      {actionData?.outcome ? <StreamOutcome outcome={actionData.outcome} /> : null}
      {formErrors && (!wasEdit || actionData?.conflict) ? <FormErrors errors={formErrors} /> : null}
      {blocked ? <StreamingBlocked note={blocked} /> : null}
      {/* A refused replay day shows on the confirm view, beside its field (the dialog has closed). */}
      {confirm || dateErrors ? <StreamConfirmPanel intent={confirm ?? "restart"} stream={stream} dateErrors={dateErrors} /> : null}
      <StreamDelivery stream={stream} blocker={blocker} />
      <StreamActions stream={stream} canChange={blocker === null} />
      {/* While the organization cannot stream, a stream can only be deleted (the service refuses the rest). */}
      {blocker ? null : (
        <EditStreamForm
          key={stream.version}
          stream={stream}
          lastResult={wasEdit && !actionData?.conflict ? actionData?.reply : undefined}
        />
      )}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

// A stream's actions: pause or resume, send a test event, restart delivery (from now or from a
// date) and delete. Restart and delete confirm first: a dialog with JavaScript (focus moves in, Esc
// closes, the focus returns to the button), and the same form on a `?confirm=restart` view without.
// Every form carries the version the page showed (a change made meanwhile is refused, not undone).
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { ConfirmDialogTrigger } from "~/components/confirm-dialog";
import { Button, ButtonLink, Card, buttonClass } from "~/components/ui";
import type { StreamView } from "~/audit-streams/streams.server";
import { StartChoice } from "./start-choice";
import { streamPagePath } from "./stream-page";

export type StreamConfirm = "restart" | "delete";

/** The restart or delete form, in the dialog and on the no-JavaScript confirm view. */
function ConfirmForm({
  intent,
  stream,
  body,
  cancel,
  dateErrors,
}: {
  intent: StreamConfirm;
  stream: StreamView;
  body: ReactNode;
  cancel: ReactNode;
  dateErrors?: string[];
}) {
  const { t } = useTranslation("auditStreams");
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action={streamPagePath(stream.id)} className="space-y-4" replace>
      {body}
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={stream.version} />
      {intent === "restart" ? <StartChoice idPrefix="restart" start="now" startDate={undefined} dateErrors={dateErrors} /> : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" variant={intent === "delete" ? "danger" : "primary"} disabled={busy}>
          {t(`${intent}.confirm`)}
        </Button>
      </div>
    </Form>
  );
}

/** A plain form with one button and the version (pause, resume, test). */
function OneButtonForm({
  stream,
  intent,
  label,
  variant,
}: {
  stream: StreamView;
  intent: string;
  label: string;
  variant: "primary" | "secondary";
}) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" action={streamPagePath(stream.id)} replace>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={stream.version} />
      <Button type="submit" variant={variant} disabled={busy} className="w-full sm:w-auto">
        {label}
      </Button>
    </Form>
  );
}

/** `canChange` false (the plan or billing stops streaming): only deleting is offered. */
export function StreamActions({ stream, canChange }: { stream: StreamView; canChange: boolean }) {
  const { t } = useTranslation("auditStreams");
  const cancelLabel = t("actions.cancel");
  const paused = stream.state === "paused";
  return (
    <Card title={t("actions.heading")}>
      <div className="space-y-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
          {canChange ? (
            <>
              <OneButtonForm
                stream={stream}
                intent={paused ? "resume" : "pause"}
                label={t(paused ? "actions.resume" : "actions.pause")}
                variant="secondary"
              />
              <OneButtonForm stream={stream} intent="test" label={t("actions.test")} variant="secondary" />
              <ConfirmDialogTrigger
                href="?confirm=restart"
                label={t("restart.button")}
                className={buttonClass("secondary", "w-full sm:w-auto")}
                title={t("restart.heading", { name: stream.name })}
                description={t("restart.body")}
                cancelLabel={cancelLabel}
                renderForm={({ description, cancel }) => (
                  <ConfirmForm intent="restart" stream={stream} body={description} cancel={cancel} />
                )}
              />
            </>
          ) : null}
          <ConfirmDialogTrigger
            href="?confirm=delete"
            label={t("delete.button")}
            className={buttonClass("dangerOutline", "w-full sm:ml-auto sm:w-auto")}
            title={t("delete.heading", { name: stream.name })}
            description={t("delete.body")}
            cancelLabel={cancelLabel}
            renderForm={({ description, cancel }) => <ConfirmForm intent="delete" stream={stream} body={description} cancel={cancel} />}
          />
        </div>
        {canChange ? <p className="text-sm text-slate-500">{t("actions.testHint")}</p> : null}
      </div>
    </Card>
  );
}

/** The confirm view without JavaScript (`?confirm=restart`, `?confirm=delete`). */
export function StreamConfirmPanel({ intent, stream, dateErrors }: { intent: StreamConfirm; stream: StreamView; dateErrors?: string[] }) {
  const { t } = useTranslation("auditStreams");
  return (
    <div data-testid="stream-confirm-panel">
      <Card tone={intent === "delete" ? "danger" : "warning"} title={t(`${intent}.heading`, { name: stream.name })}>
        <ConfirmForm
          intent={intent}
          stream={stream}
          dateErrors={dateErrors}
          body={<p className="text-sm text-slate-700">{t(`${intent}.body`)}</p>}
          cancel={
            <ButtonLink to={streamPagePath(stream.id)} replace variant="secondary">
              {t("actions.cancel")}
            </ButtonLink>
          }
        />
      </Card>
    </div>
  );
}

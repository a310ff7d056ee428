// Confirming rotate and revoke: a dialog with JavaScript (focus moves in, Esc closes), and the same
// form on a `?confirm=rotate&key=<id>` view without it.
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { ConfirmDialog, confirmLinkProps } from "~/components/confirm-dialog";
import { Alert, Button, ButtonLink, Card, buttonClass } from "~/components/ui";
import type { ApiKeyView } from "~/api-keys/api-keys.server";
import { KEYS_PAGE_PATH } from "./key-page";
import type { KeyListText } from "./key-list-text";

/** The confirmation form itself, used by the no-JS confirm view and by the dialog. */
function ConfirmForm({
  intent,
  apiKey,
  cancel,
  body,
}: {
  intent: "rotate" | "revoke";
  apiKey: ApiKeyView;
  cancel: ReactNode;
  body: ReactNode;
}) {
  const { t } = useTranslation("apiKeys");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <Form method="post" action={KEYS_PAGE_PATH} className="space-y-4" replace>
      {body}
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm text-slate-600">
        <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{apiKey.name}</span>
        <code className="font-mono text-xs text-slate-500">{apiKey.prefix}…</code>
      </p>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="keyId" value={apiKey.id} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {cancel}
        <Button type="submit" variant={intent === "revoke" ? "danger" : "primary"} disabled={busy}>
          {t(`${intent}.confirm`)}
        </Button>
      </div>
    </Form>
  );
}

/** The dialog's heading, translated only when the dialog opens. */
function ConfirmHeading({ intent, name }: { intent: "rotate" | "revoke"; name: string }) {
  const { t } = useTranslation("apiKeys");
  return t(`${intent}.heading`, { name });
}

/** A confirmation the key list's dialog is showing, and the link that asked for it. */
export interface KeyConfirmation {
  intent: "rotate" | "revoke";
  apiKey: ApiKeyView;
  trigger: HTMLElement;
}

/**
 * A row's Rotate or Revoke: a link to the page's confirm view (no JavaScript), which opens the
 * list's one dialog once the page is interactive. Its words come from the list (key-list-text.ts).
 * A plain function, not a component: the list renders two per key.
 */
export function confirmLink(
  intent: "rotate" | "revoke",
  apiKey: ApiKeyView,
  text: KeyListText,
  onOpen: (confirmation: KeyConfirmation) => void,
) {
  return (
    <a
      {...confirmLinkProps(`?confirm=${intent}&key=${encodeURIComponent(apiKey.id)}`, (trigger) => onOpen({ intent, apiKey, trigger }))}
      aria-label={`${text[intent].button}: ${apiKey.name}`}
      className={buttonClass(intent === "revoke" ? "dangerOutline" : "secondary", "whitespace-nowrap", "sm")}
    >
      {text[intent].button}
    </a>
  );
}

/** The key list's one confirmation dialog; `confirmation` is the last one asked for. */
export function KeyConfirmDialog({
  confirmation,
  open,
  onOpenChange,
  text,
}: {
  confirmation: KeyConfirmation | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  text: KeyListText;
}) {
  return (
    <ConfirmDialog
      open={open && confirmation !== null}
      onOpenChange={onOpenChange}
      returnFocusTo={confirmation?.trigger}
      title={confirmation ? <ConfirmHeading intent={confirmation.intent} name={confirmation.apiKey.name} /> : null}
      description={confirmation ? text[confirmation.intent].body : null}
      cancelLabel={text.cancel}
      renderForm={({ description, cancel }) =>
        confirmation ? <ConfirmForm intent={confirmation.intent} apiKey={confirmation.apiKey} body={description} cancel={cancel} /> : null
      }
    />
  );
}

export function ConfirmPanel({ confirm }: { confirm: { intent: "rotate" | "revoke"; key: ApiKeyView | null } }) {
  const { t } = useTranslation("apiKeys");
  if (!confirm.key) return <Alert tone="error">{t("confirmMissing")}</Alert>;
  return (
    <div data-testid="confirm-panel">
      <Card tone={confirm.intent === "revoke" ? "danger" : "warning"} title={t(`${confirm.intent}.heading`, { name: confirm.key.name })}>
        <ConfirmForm
          intent={confirm.intent}
          apiKey={confirm.key}
          body={<p className="text-sm text-slate-700">{t(`${confirm.intent}.body`)}</p>}
          cancel={
            <ButtonLink to={KEYS_PAGE_PATH} replace variant="secondary">
              {t("cancel")}
            </ButtonLink>
          }
        />
      </Card>
    </div>
  );
}

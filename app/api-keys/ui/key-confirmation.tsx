// Confirming rotate and revoke: a dialog with JavaScript (focus moves in, Esc closes), and the same
// form on a `?confirm=rotate&key=<id>` view without it.
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation } from "react-router";
import { Alert, Button, ButtonLink, Card, buttonClass } from "~/components/ui";
import type { ApiKeyView } from "~/api-keys/api-keys.server";
import { KEYS_PAGE_PATH } from "./key-page";

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

export function ConfirmTrigger({ intent, apiKey }: { intent: "rotate" | "revoke"; apiKey: ApiKeyView }) {
  const { t } = useTranslation("apiKeys");
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  // Close once the confirmed submission has gone through.
  useEffect(() => {
    if (navigation.state === "idle") setOpen(false);
  }, [navigation.state]);
  const href = `?confirm=${intent}&key=${encodeURIComponent(apiKey.id)}`;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      {/* The trigger Radix knows: Esc and Cancel return the focus to it. */}
      <Dialog.Trigger asChild>
        <Link
          to={href}
          preventScrollReset
          aria-label={`${t(`${intent}.button`)}: ${apiKey.name}`}
          onClick={(event) => {
            // With JavaScript the dialog confirms; without it, the link opens the confirm view.
            event.preventDefault();
            setOpen(true);
          }}
          className={buttonClass(intent === "revoke" ? "dangerOutline" : "secondary", "flex-1 md:flex-none", "sm")}
        >
          {t(`${intent}.button`)}
        </Link>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl ring-1 ring-slate-900/5 focus:outline-none">
          <Dialog.Title className="pr-6 text-base font-semibold text-slate-900 [overflow-wrap:anywhere]">
            {t(`${intent}.heading`, { name: apiKey.name })}
          </Dialog.Title>
          <div className="mt-3">
            <ConfirmForm
              intent={intent}
              apiKey={apiKey}
              body={<Dialog.Description className="text-sm text-slate-700">{t(`${intent}.body`)}</Dialog.Description>}
              cancel={
                <Dialog.Close asChild>
                  <Button type="button" variant="secondary">
                    {t("cancel")}
                  </Button>
                </Dialog.Close>
              }
            />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
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

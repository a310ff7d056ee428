// Confirmation before a destructive action, with and without JavaScript. The trigger is a link to
// a confirm view the page renders from its URL (no JavaScript); with JavaScript the same form
// opens in an accessible dialog instead (focus moves in, Esc or Cancel closes it and returns the
// focus to the trigger, the background is inert). The page owns the form; this owns the dialog.
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState, type ReactNode } from "react";
import { Link, useNavigation } from "react-router";
import { Button } from "./ui";

export function ConfirmDialogTrigger({
  href,
  label,
  ariaLabel,
  className,
  title,
  description,
  cancelLabel,
  renderForm,
}: {
  /** The no-JavaScript confirm view of the page. */
  href: string;
  label: ReactNode;
  ariaLabel?: string;
  className: string;
  title: ReactNode;
  description: ReactNode;
  cancelLabel: string;
  /** The confirming form, given the dialog's description and Cancel button to place. */
  renderForm: (parts: { description: ReactNode; cancel: ReactNode }) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  // Close once the confirmed submission has gone through.
  useEffect(() => {
    if (navigation.state === "idle") setOpen(false);
  }, [navigation.state]);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      {/* The trigger Radix knows: Esc and Cancel return the focus to it. */}
      <Dialog.Trigger asChild>
        <Link
          to={href}
          preventScrollReset
          aria-label={ariaLabel}
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
          className={className}
        >
          {label}
        </Link>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50 backdrop-blur-[1px]" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl ring-1 ring-slate-900/5 focus:outline-none">
          <Dialog.Title className="pr-6 text-base font-semibold text-slate-900 [overflow-wrap:anywhere]">{title}</Dialog.Title>
          <div className="mt-3">
            {renderForm({
              description: <Dialog.Description className="text-sm text-slate-700">{description}</Dialog.Description>,
              cancel: (
                <Dialog.Close asChild>
                  <Button type="button" variant="secondary">
                    {cancelLabel}
                  </Button>
                </Dialog.Close>
              ),
            })}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

// Confirmation before a destructive action, with and without JavaScript. The trigger is a link to
// a confirm view the page renders from its URL (no JavaScript); with JavaScript the same form
// opens in an accessible dialog instead (focus moves in, Esc or Cancel closes it and returns the
// focus to the trigger, the background is inert). The page owns the form; this owns the dialog.
//
// Two shapes: ConfirmDialogTrigger, a trigger with its own dialog (a page with a few actions), and
// ConfirmDialog with confirmLinkProps, one dialog for a whole list whose rows render plain links
// (25 keys with two actions each would otherwise render 50 dialogs, a noticeable part of the keys
// page's server rendering).
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useEffectEvent, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { useNavigation } from "react-router";
import { Button } from "./ui";

interface ConfirmContent {
  title: ReactNode;
  description: ReactNode;
  cancelLabel: string;
  /** The confirming form, given the dialog's description and Cancel button to place. */
  renderForm: (parts: { description: ReactNode; cancel: ReactNode }) => ReactNode;
}

/**
 * The dialog alone, opened and closed by its owner. It closes itself once a submission has gone
 * through; on close the focus goes back to `returnFocusTo` (the link that opened it).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  returnFocusTo,
  children,
  ...content
}: ConfirmContent & { open: boolean; onOpenChange: (open: boolean) => void; returnFocusTo?: HTMLElement | null; children?: ReactNode }) {
  const navigation = useNavigation();
  // It closes once its own submission has gone through: a submission seen while it was open, then
  // idle. Not on any return to idle: opened while the page still revalidates after another action,
  // it would close under the person's hands as that finishes. Only a change of the navigation
  // state counts; a new callback from the owner's render does not.
  const submittedWhileOpen = useRef(false);
  const followNavigation = useEffectEvent((state: typeof navigation.state) => {
    if (!open) {
      submittedWhileOpen.current = false;
    } else if (state === "submitting") {
      submittedWhileOpen.current = true;
    } else if (state === "idle" && submittedWhileOpen.current) {
      submittedWhileOpen.current = false;
      onOpenChange(false);
    }
  });
  useEffect(() => followNavigation(navigation.state), [navigation.state]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      {children}
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/50 backdrop-blur-[1px]" />
        <Dialog.Content
          className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 shadow-xl ring-1 ring-slate-900/5 focus:outline-none"
          onCloseAutoFocus={(event) => {
            if (!returnFocusTo) return;
            event.preventDefault();
            returnFocusTo.focus();
          }}
        >
          <Dialog.Title className="pr-6 text-base font-semibold text-slate-900 [overflow-wrap:anywhere]">{content.title}</Dialog.Title>
          <div className="mt-3">
            {content.renderForm({
              description: <Dialog.Description className="text-sm text-slate-700">{content.description}</Dialog.Description>,
              cancel: (
                <Dialog.Close asChild>
                  <Button type="button" variant="secondary">
                    {content.cancelLabel}
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

/**
 * What a row's plain link needs to open the list's one dialog: a click (a plain left click once
 * the page is interactive) opens it instead of following the link to the confirm view.
 */
export function confirmLinkProps(href: string, open: (trigger: HTMLElement) => void) {
  return {
    href,
    "aria-haspopup": "dialog" as const,
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      open(event.currentTarget);
    },
  };
}

export function ConfirmDialogTrigger({
  href,
  label,
  ariaLabel,
  className,
  ...content
}: ConfirmContent & {
  /** The no-JavaScript confirm view of the page. */
  href: string;
  label: ReactNode;
  ariaLabel?: string;
  className: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog open={open} onOpenChange={setOpen} {...content}>
      {/* The trigger Radix knows: Esc and Cancel return the focus to it. A plain link: with
          JavaScript a click only opens the dialog. */}
      <Dialog.Trigger asChild>
        <a
          href={href}
          aria-label={ariaLabel}
          onClick={(event) => {
            event.preventDefault();
            setOpen(true);
          }}
          className={className}
        >
          {label}
        </a>
      </Dialog.Trigger>
    </ConfirmDialog>
  );
}

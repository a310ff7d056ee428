// Small shared UI pieces. Styling lives here so pages stay about their content.
import type { ComponentProps, ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { isErrorKey } from "~/i18n/error-keys";
import { Link } from "react-router";

export function cx(...classes: (string | false | null | undefined)[]) {
  return classes.filter(Boolean).join(" ");
}

// Buttons are styled by the component classes in app/app.css (.btn and one class per size and
// variant): a list row repeats its buttons, and ~300 characters of utilities per button made the
// keys page twice the bytes of its content (docs/decisions/0024-audit-view-at-scale.md).
const buttonVariants = {
  primary: "btn-primary",
  secondary: "btn-secondary",
  danger: "btn-danger",
  /** A destructive action that is not the page's main one (e.g. "Revoke" in a list). */
  dangerOutline: "btn-danger-outline",
  ghost: "btn-ghost",
} as const;

export type ButtonVariant = keyof typeof buttonVariants;

const buttonSizes = {
  md: "btn-md",
  /** For actions inside list rows. */
  sm: "btn-sm",
} as const;

export type ButtonSize = keyof typeof buttonSizes;

export function buttonClass(variant: ButtonVariant = "primary", className?: string, size: ButtonSize = "md") {
  return cx("btn", buttonSizes[size], buttonVariants[variant], className);
}

export function Button({
  variant = "primary",
  size,
  className,
  ...props
}: ComponentProps<"button"> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <button className={buttonClass(variant, className, size)} {...props} />;
}

/** A link that looks like a button (navigation, not an action). */
export function ButtonLink({
  variant = "primary",
  size,
  className,
  ...props
}: ComponentProps<typeof Link> & { variant?: ButtonVariant; size?: ButtonSize }) {
  return <Link className={buttonClass(variant, className, size)} {...props} />;
}

/** Translates a field error: the schemas carry keys under `errors:`; anything else (zod's own
 * wording) is never handed to i18next, which would interpret it (app/i18n/error-keys.ts). */
export function useFieldError(errors: string[] | undefined, params?: Record<string, unknown>) {
  const { t } = useTranslation();
  const first = errors?.[0];
  if (!first) return undefined;
  return isErrorKey(first) ? t(`errors:${first}`, { min: 10, max: 256, ...params }) : t("errors:field.invalid");
}

interface FieldFrameProps {
  label: string;
  name: string;
  id?: string;
  errors?: string[];
  hint?: ReactNode;
  errorParams?: Record<string, unknown>;
}

/** A labelled control with its hint or (translated) error, described by whichever is shown. */
function FieldFrame({
  label,
  name,
  id,
  errors,
  hint,
  errorParams,
  control,
}: FieldFrameProps & {
  control: (props: { id: string; name: string; className: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}) {
  const inputId = id ?? `field-${name}`;
  const error = useFieldError(errors, errorParams);
  const describedBy = error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {control({
        id: inputId,
        name,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        className: cx(
          "block w-full rounded-md border-0 bg-white px-3 py-2 text-base text-slate-900 shadow-sm ring-1 ring-inset outline-none transition-shadow placeholder:text-slate-400 focus:ring-2 focus:ring-inset disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500 sm:text-sm",
          error ? "ring-red-400 focus:ring-red-500" : "ring-slate-300 focus:ring-brand-600",
        ),
      })}
      {error ? (
        <p id={`${inputId}-error`} className="text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${inputId}-hint`} className="text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Field({ label, name, id, errors, hint, errorParams, ...input }: ComponentProps<"input"> & FieldFrameProps) {
  return (
    <FieldFrame
      {...{ label, name, id, errors, hint, errorParams }}
      control={(frame) => <input {...frame} {...input} id={frame.id} name={frame.name} className={frame.className} />}
    />
  );
}

export function TextareaField({ label, name, id, errors, hint, errorParams, ...textarea }: ComponentProps<"textarea"> & FieldFrameProps) {
  return (
    <FieldFrame
      {...{ label, name, id, errors, hint, errorParams }}
      control={(frame) => <textarea {...frame} {...textarea} id={frame.id} name={frame.name} className={frame.className} />}
    />
  );
}

/** The look of a select or date input outside a Field (filters, switchers). A fixed height: a
 * select renders 2 px shorter than a date input with the same padding, side by side in a filter bar. */
export const controlClass =
  "block h-9 w-full rounded-md border-0 bg-white py-2 pl-3 pr-8 text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-brand-600";

const cardTones = {
  default: "ring-1 ring-slate-200",
  /** Something the reader must act on now (e.g. a secret shown once). */
  warning: "ring-2 ring-amber-300",
  danger: "ring-2 ring-red-200",
} as const;

export function Card({
  title,
  description,
  children,
  className,
  actions,
  id,
  tone = "default",
}: {
  title?: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  actions?: ReactNode;
  id?: string;
  tone?: keyof typeof cardTones;
}) {
  return (
    <section id={id} className={cx("rounded-xl bg-white shadow-sm", cardTones[tone], className)}>
      {title ? (
        <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
          <div className="min-w-0">
            <h2 className="text-base font-semibold text-slate-900">{title}</h2>
            {description ? <p className="mt-1 text-sm text-slate-500">{description}</p> : null}
          </div>
          {actions}
        </header>
      ) : null}
      <div className="px-5 py-5">{children}</div>
    </section>
  );
}

const alertStyles = {
  error: "bg-red-50 text-red-800 ring-red-200",
  success: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  info: "bg-sky-50 text-sky-800 ring-sky-200",
  warning: "bg-amber-50 text-amber-900 ring-amber-200",
} as const;

const alertIcons = {
  error:
    "M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm-.75-11.5a.75.75 0 0 1 1.5 0v4a.75.75 0 0 1-1.5 0v-4ZM10 14.25a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z",
  warning:
    "M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm-.75-11.5a.75.75 0 0 1 1.5 0v4a.75.75 0 0 1-1.5 0v-4ZM10 14.25a1 1 0 1 1 0-2 1 1 0 0 1 0 2Z",
  success:
    "M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm3.7-9.8-4.25 4.5a.75.75 0 0 1-1.08.02l-2.06-2a.75.75 0 1 1 1.05-1.08l1.5 1.46 3.74-3.96a.75.75 0 1 1 1.1 1.06Z",
  info: "M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm.75-11.25a1 1 0 1 1-2 0 1 1 0 0 1 2 0ZM9.25 9.5a.75.75 0 0 1 1.5 0v4a.75.75 0 0 1-1.5 0v-4Z",
} as const;

export function Alert({ tone = "info", children }: { tone?: keyof typeof alertStyles; children: ReactNode }) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cx("flex gap-3 rounded-md px-4 py-3 text-sm ring-1 ring-inset", alertStyles[tone])}
    >
      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="mt-px h-4 w-4 shrink-0 opacity-80">
        <path fillRule="evenodd" clipRule="evenodd" d={alertIcons[tone]} />
      </svg>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}

type BadgeTone = "slate" | "green" | "amber" | "red" | "brand";

/** A small pill's classes (named in app/app.css), for rows that render one without a component. */
export function badgeClass(tone: BadgeTone = "slate", extra?: string) {
  return cx("badge", `badge-${tone}`, extra);
}

export function Badge({ children, tone = "slate" }: { children: ReactNode; tone?: BadgeTone }) {
  return <span className={badgeClass(tone)}>{children}</span>;
}

export function PageHeader({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div className="min-w-0">
        <h1 className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl">{title}</h1>
        {description ? <p className="mt-1 text-sm text-slate-500">{description}</p> : null}
      </div>
      {actions}
    </div>
  );
}

/** For a step that needs a recent sign-in (deleting an account or an organization): why, and the
 * way to sign in again and come back. */
export function SignInAgain({ message, href, label }: { message: string; href: string; label: string }) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">{message}</p>
      <ButtonLink to={href} variant="secondary">
        {label}
      </ButtonLink>
    </div>
  );
}

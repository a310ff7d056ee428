// A block of code to copy: a caption bar with the copy button (once hydrated; without JavaScript
// the code stays selectable text), then the code, scrolled sideways on narrow screens rather than
// wrapped (a wrapped shell line would no longer paste). The scroll area takes keyboard focus, so it
// can be scrolled without a mouse. Its colours are literal, so code stays light on near-black in dark
// mode too (app/app.css mirrors the Tailwind scales, which would turn it into dark on light).
import { CopyButton } from "~/components/copy-button";

export function CodeBlock({ caption, code, copyLabel, id }: { caption: string; code: string; copyLabel: string; id?: string }) {
  return (
    <figure id={id} className="overflow-hidden rounded-lg ring-1 ring-slate-200">
      <figcaption className="flex min-h-10 items-center justify-between gap-3 border-b border-slate-200 bg-slate-50 px-3 py-1.5">
        <span className="text-xs font-semibold uppercase tracking-wide text-slate-600">{caption}</span>
        <CopyButton value={code} label={copyLabel} />
      </figcaption>
      <pre
        tabIndex={0}
        aria-label={caption}
        className="overflow-x-auto bg-[#020617] p-4 text-[13px] leading-relaxed text-[#e2e8f0] focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-brand-400"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** Inline code in running text. */
export function Code({ children }: { children: string }) {
  return (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] text-slate-800 [overflow-wrap:anywhere]">{children}</code>
  );
}

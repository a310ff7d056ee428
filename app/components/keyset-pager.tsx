// "Back to the first page" and "next page" links of a list paged by a keyset cursor (such a list
// cannot page backwards cheaply, and needs no page numbers).
import { Link } from "react-router";

export function KeysetPager({
  label,
  first,
  next,
}: {
  label: string;
  /** Shown when this is not the first page. */
  first: { href: string; label: string } | null;
  next: { href: string; label: string } | null;
}) {
  if (!first && !next) return null;
  return (
    <nav className="mt-4 flex flex-wrap gap-4 text-sm font-medium" aria-label={label}>
      {first ? (
        <Link to={first.href} className="text-brand-600 hover:text-brand-700">
          {first.label}
        </Link>
      ) : null}
      {next ? (
        <Link to={next.href} className="text-brand-600 hover:text-brand-700">
          {next.label} →
        </Link>
      ) : null}
    </nav>
  );
}

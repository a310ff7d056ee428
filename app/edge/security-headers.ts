// Response headers that make the browser an ally. Every response gets the baseline (set by the
// request edge); server-rendered documents replace its Content-Security-Policy with one that lets
// exactly their own scripts run: those carrying the per-request nonce (app/entry.server.tsx).

/** Scripts: only ours, by nonce. Styles: our stylesheet plus inline style attributes, which the
 * dialogs' scroll lock sets (docs/decisions/0017-security-headers.md). Images: our own origin (the
 * uploaded logos are served from it) and data: URIs, which the stylesheet's icon masks are
 * (app/app.css); nothing else since logos stopped being URLs elsewhere, and no blob: (the logo
 * field shows the stored logo, not a preview of the file picked) (docs/decisions/0037-health-
 * readiness-and-drain.md). Nothing may frame us. */
export function documentContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** For everything that is not a rendered page: JSON, files, the edge's own small error pages. */
const NON_DOCUMENT_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function baselineSecurityHeaders(options: { https: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": NON_DOCUMENT_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(options.https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

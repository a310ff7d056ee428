// Checks the production server makes before handing a request to React Router:
// - bodies over 1 MiB are refused (413): no form of ours needs more, and parsing a huge form
//   (or hashing a huge password) would let one request tie up a core;
// - cross-site writes are refused (403). React Router's own origin check would answer a cross-site
//   form POST with a bare 400; the spec wants 403 with a clear message. The root middleware keeps
//   the same rule for the dev server and for requests that carry only Sec-Fetch-Site.
import { applicationOrigin, isCrossSiteRequest } from "~/auth/cross-site.server";
import { fixedT, languageFromHeaders } from "~/i18n/i18next.server";

export const MAX_PAGE_BODY_BYTES = 1024 * 1024;

function reply(headers: Headers, status: number, code: string, titleKey: string, messageKey: string): Response {
  const t = fixedT(languageFromHeaders(headers));
  const message = t(messageKey);
  if ((headers.get("accept") ?? "").includes("text/html")) {
    const title = t(titleKey);
    const style =
      "body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0}" +
      "main{max-width:28rem;text-align:center;padding:2rem}h1{font-size:1.75rem;margin:.5rem 0}p{color:#475569}a{color:#4f46e5;font-weight:600}";
    const html = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title><style>${style}</style></head><body><main><p>${status}</p><h1>${title}</h1><p>${message}</p><p><a href="/dashboard">${t("common:errorPage.home")}</a></p></main></body></html>`;
    return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8" } });
  }
  return Response.json({ code, message }, { status });
}

export function rejectBeforeRouting(method: string, url: string, headers: Headers): Response | null {
  if (method === "GET" || method === "HEAD") return null;
  const length = Number(headers.get("content-length") ?? 0);
  if (length > MAX_PAGE_BODY_BYTES) return reply(headers, 413, "PAYLOAD_TOO_LARGE", "common:errorPage.badRequestTitle", "errors:payloadTooLarge");
  if (isCrossSiteRequest(headers, applicationOrigin(url))) return reply(headers, 403, "FORBIDDEN", "common:errorPage.forbiddenTitle", "errors:crossSite");
  return null;
}

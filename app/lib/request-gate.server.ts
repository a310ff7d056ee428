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
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${message}</p></body></html>`;
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

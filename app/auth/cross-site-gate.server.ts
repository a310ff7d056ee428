// The production server asks this before handing a write to React Router. React Router's own
// origin check would answer a cross-site form POST with a bare 400; the spec wants 403 with a
// clear message, so cross-site writes are refused here first (the root middleware keeps the same
// rule for the dev server and for requests that only carry Sec-Fetch-Site).
import { fixedT, languageFromHeaders } from "~/i18n/i18next.server";
import { applicationOrigin, isCrossSiteRequest } from "./cross-site.server";

export function crossSiteRejection(method: string, url: string, headers: Headers): Response | null {
  if (method === "GET" || method === "HEAD" || !isCrossSiteRequest(headers, applicationOrigin(url))) return null;
  const language = languageFromHeaders(headers);
  const message = fixedT(language)("errors:crossSite");
  if ((headers.get("accept") ?? "").includes("text/html")) {
    const title = fixedT(language)("common:errorPage.forbiddenTitle");
    const html = `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${message}</p></body></html>`;
    return new Response(html, { status: 403, headers: { "content-type": "text/html; charset=utf-8" } });
  }
  return Response.json({ code: "FORBIDDEN", message }, { status: 403 });
}

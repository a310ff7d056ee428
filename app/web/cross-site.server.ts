// Cross-site protection for cookie-authenticated requests (docs/product-rules.md, Authentication rule 7):
// when Sec-Fetch-Site is present it must be same-origin or none; when Origin is present it must
// equal the application's origin. Browsers always send at least one of them on cross-site writes.
import { env } from "~/env.server";

export function applicationOrigin(requestUrl: string): string {
  return env().APP_ORIGIN ?? new URL(requestUrl).origin;
}

export function isCrossSiteRequest(headers: Headers, appOrigin: string): boolean {
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite !== null && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = headers.get("origin");
  if (origin !== null && origin !== appOrigin) return true;
  return false;
}

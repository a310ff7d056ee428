// How a page's action addresses the mails it causes: in the page's language, with links to the
// application's origin (APP_ORIGIN, else the one the request came to, as the request edge checked it).
import type { RouterContextProvider } from "react-router";
import { fallbackLanguage, isLanguage } from "~/i18n/config";
import { getLocale } from "~/i18n/i18next.server";
import type { MailDelivery } from "~/organizations/invitations.server";
import { applicationOrigin } from "./cross-site.server";

export function mailDeliveryFor({ request, context }: { request: Request; context: Readonly<RouterContextProvider> }): MailDelivery {
  const locale = getLocale(context);
  return { language: isLanguage(locale) ? locale : fallbackLanguage, origin: applicationOrigin(request.url) };
}

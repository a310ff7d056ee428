// How a page's action addresses the mails it causes: in the page's language, with links to the
// application's public origin (APP_ORIGIN, else http://localhost:PORT; never the request's Host).
import type { RouterContextProvider } from "react-router";
import { getLocale } from "~/i18n/i18next.server";
import type { MailDelivery } from "~/organizations/invitations.server";
import { publicOrigin } from "~/env.server";

export function mailDeliveryFor({ context }: { context: Readonly<RouterContextProvider> }): MailDelivery {
  // The i18n middleware only ever decides a supported language.
  return { language: getLocale(context), origin: publicOrigin() };
}

// Route meta for a page title: "<Page> · KeyLedger", and on an organization's pages
// "<Page> · <Organization> · KeyLedger", so a tab (and the history, and a bookmark) says which
// organization it shows when several are open. A route that failed has no loader data: it then
// returns nothing, and its error boundary renders the error's own translated <title>
// (app/components/error-page.tsx).
import common from "~/i18n/locales/en/common";

/** The product's name: the same word in every language. */
export const PRODUCT_NAME = common.appName;

const SEPARATOR = " · ";

export function titleMeta(title: string | undefined, organization?: string | null) {
  return title ? [{ title: [title, organization, PRODUCT_NAME].filter(Boolean).join(SEPARATOR) }] : [];
}

/** The route id of the signed-in frame, whose loader names the active organization (app/shell/app-shell.server.ts). */
const SIGNED_IN_FRAME = "routes/dashboard";

/** The active organization's name, from the signed-in frame's loader data among a meta function's matches. */
export function activeOrganizationName(matches: readonly ({ id: string; loaderData?: unknown } | undefined)[]): string | null {
  const frame = matches.find((match) => match?.id === SIGNED_IN_FRAME)?.loaderData;
  if (typeof frame !== "object" || frame === null || !("active" in frame)) return null;
  const active = frame.active;
  return typeof active === "object" && active !== null && "name" in active && typeof active.name === "string" ? active.name : null;
}

/** A page of the active organization: "<Page> · <Organization> · KeyLedger". */
export function organizationTitleMeta({
  loaderData,
  matches,
}: {
  loaderData: { title: string } | undefined;
  matches: readonly ({ id: string; loaderData?: unknown } | undefined)[];
}) {
  return titleMeta(loaderData?.title, activeOrganizationName(matches));
}

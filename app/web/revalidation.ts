// React Router's shouldRevalidate for the routes around the audit log's drawer (runs in the browser).
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { onlyDrawerChanged } from "~/audit/audit-query";

/** Opening or closing an audit event's drawer (it loads its own data) reloads nothing else. */
export function keepDataWhenOnlyDrawerChanged({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return !formMethod && onlyDrawerChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate;
}

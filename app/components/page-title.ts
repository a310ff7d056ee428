// Route meta for a page title. A route that failed has no loader data: it then returns nothing,
// and its error boundary renders the error's own translated <title> (app/components/error-page.tsx).
export function titleMeta(title: string | undefined) {
  return title ? [{ title }] : [];
}

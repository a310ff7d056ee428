// Whether a request was made by a browser opening a page: its Accept header offers text/html (as
// every browser's navigation and download link sends). Programs send application/json, */* or no
// Accept at all, and keep getting JSON. `text/html;q=0` means "not this one" (RFC 9110).
export function acceptsHtml(headers: Headers): boolean {
  const accept = headers.get("accept") ?? "";
  return accept.split(",").some((range) => {
    const [type, ...parameters] = range.split(";").map((part) => part.trim().toLowerCase());
    if (type !== "text/html") return false;
    const q = parameters.find((p) => p.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

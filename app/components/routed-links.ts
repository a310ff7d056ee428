// Links inside long lists (50 audit rows, 25 keys with their history links) are plain <a href>
// elements, and the list routes their clicks: one handler per list instead of one React Router
// <Link> per row. A <Link> resolves its path through several router hooks on every render, which
// was a tenth of the server's rendering time on those pages. A plain left click on a same-origin
// link is handled as <Link> handles it (a client-side navigation); everything else (a modified or
// middle click, target, download, another origin, a click a row handled itself) is left to the
// browser. Without JavaScript the links are ordinary links either way.
import type { MouseEvent } from "react";
import { useNavigate } from "react-router";

export function useRoutedClicks({ preventScrollReset = false }: { preventScrollReset?: boolean } = {}) {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    const anchor = event.target instanceof Element ? event.target.closest("a") : null;
    if (!anchor || !event.currentTarget.contains(anchor) || anchor.target || anchor.hasAttribute("download")) return;
    if (anchor.origin !== window.location.origin) return;
    event.preventDefault();
    void navigate(`${anchor.pathname}${anchor.search}${anchor.hash}`, { preventScrollReset });
  };
}

// The shell's <details> menus (the user menu, the phone navigation) work without JavaScript; with
// it they also close on navigation, Escape and outside clicks.
import { useEffect } from "react";
import { useLocation } from "react-router";

export function useClosingMenus() {
  const location = useLocation();
  useEffect(() => {
    for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]")) menu.open = false;
  }, [location.key]);
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]")) {
        const target = event.target as Element;
        if (!menu.contains(target) || target.closest?.("[data-menu-backdrop]")) menu.open = false;
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      for (const menu of document.querySelectorAll<HTMLDetailsElement>("details[data-menu][open]")) {
        menu.open = false;
        menu.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);
}

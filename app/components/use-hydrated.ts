// Whether the page has hydrated: controls that need JavaScript (copy buttons, dialogs) appear only
// then, so the server-rendered page never offers a button that does nothing.
import { useEffect, useState } from "react";

export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

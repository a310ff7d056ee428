// Whether the page has hydrated: controls that need JavaScript (copy buttons, dialogs) appear only
// then, so the server-rendered page never offers a button that does nothing. The server snapshot
// (false) is what hydration renders; React then re-renders with the client's (true), without an
// effect that sets state.
import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

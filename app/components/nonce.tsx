// The Content-Security-Policy nonce of the response being rendered, for the inline scripts React
// Router writes (app/entry.server.tsx sets it; browsers hide it from the DOM, so it is "" there).
import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}

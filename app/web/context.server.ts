// Values the middleware puts on the request context for loaders and actions.
import { createContext, RouterContextProvider } from "react-router";
import type { Auth, SessionDevice } from "~/auth/session.server";
import type { RequestLog } from "~/lib/logger.server";

/** The signed-in session and user, or null. Loaded once per request by the root middleware. */
export const authContext = createContext<Auth | null>(null);

/** The client's address as the server saw it (honouring X-Forwarded-For only with TRUST_PROXY). */
export const clientAddressContext = createContext<string>("unknown");

/** The nonce that this response's scripts carry (Content-Security-Policy, app/entry.server.tsx). */
export const cspNonceContext = createContext<string>("");

/** This request's log record (app/lib/logger.server.ts), written by the request edge. */
export const requestLogContext = createContext<RequestLog | null>(null);

export function createLoadContext(options: { clientAddress: string; cspNonce: string; requestLog: RequestLog }): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(clientAddressContext, options.clientAddress);
  context.set(cspNonceContext, options.cspNonce);
  context.set(requestLogContext, options.requestLog);
  return context;
}

/** Where a sign-in comes from, for the session list: the browser's User-Agent and the client address. */
export function deviceOf(request: Request, context: Readonly<RouterContextProvider>): SessionDevice {
  return { userAgent: request.headers.get("user-agent"), address: context.get(clientAddressContext) };
}

// The session cookie. HttpOnly so scripts cannot read it; SameSite=Lax so other sites cannot
// send it with their POSTs; Secure (and the __Host- prefix) whenever the app is served over HTTPS.
import { serialize } from "cookie";
import { isHttpsDeployment } from "~/env.server";
import { readCookie } from "~/lib/cookies";
import { SESSION_ABSOLUTE_LIFETIME } from "./session.server";

export function sessionCookieName(): string {
  return isHttpsDeployment() ? "__Host-session" : "session";
}

function serializeSession(value: string, maxAgeSeconds: number): string {
  return serialize(sessionCookieName(), value, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    maxAge: maxAgeSeconds,
    secure: isHttpsDeployment(),
  });
}

export function sessionCookie(token: string): string {
  return serializeSession(token, Math.floor(SESSION_ABSOLUTE_LIFETIME / 1000));
}

export function clearedSessionCookie(): string {
  return serializeSession("", 0);
}

export function readSessionToken(cookieHeader: string | null | undefined): string | null {
  return readCookie(cookieHeader, sessionCookieName());
}

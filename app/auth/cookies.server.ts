// The session cookie. HttpOnly so scripts cannot read it; SameSite=Lax so other sites cannot
// send it with their POSTs; Secure (and the __Host- prefix) whenever the app is served over HTTPS.
import { SESSION_ABSOLUTE_LIFETIME } from "./session.server";
import { env } from "~/env.server";

export function isSecureDeployment(): boolean {
  return env().APP_ORIGIN?.startsWith("https://") ?? false;
}

export function sessionCookieName(): string {
  return isSecureDeployment() ? "__Host-session" : "session";
}

function serialize(value: string, maxAgeSeconds: number): string {
  const parts = [`${sessionCookieName()}=${value}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${maxAgeSeconds}`];
  if (isSecureDeployment()) parts.push("Secure");
  return parts.join("; ");
}

export function sessionCookie(token: string): string {
  return serialize(token, Math.floor(SESSION_ABSOLUTE_LIFETIME / 1000));
}

export function clearedSessionCookie(): string {
  return serialize("", 0);
}

/** Reads one cookie by name from a Cookie header, tolerating garbage around it. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header || header.length > 16_384) return null;
  for (const part of header.split(";")) {
    const index = part.indexOf("=");
    if (index === -1) continue;
    if (part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return null;
}

export function readSessionToken(cookieHeader: string | null | undefined): string | null {
  return readCookie(cookieHeader, sessionCookieName());
}

// Sign out (POST only): ends the session and clears its cookie.
import { href, redirect } from "react-router";
import type { Route } from "./+types/logout";
import { clearedSessionCookie } from "~/auth/cookies.server";
import { getAuth } from "~/web/guards.server";
import { invalidateSession } from "~/auth/session.server";

// Sign-out is a POST (a link cannot sign anyone out); GET just goes home.
export function loader() {
  return redirect(href("/"));
}

export async function action({ context }: Route.ActionArgs) {
  const auth = getAuth(context);
  if (auth) await invalidateSession(auth.session.id);
  return redirect(href("/login"), { headers: { "Set-Cookie": clearedSessionCookie() } });
}

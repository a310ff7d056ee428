// `/`: to the dashboard when signed in, to the sign-in page otherwise.
import { href, redirect } from "react-router";
import type { Route } from "./+types/home";
import { getAuth } from "~/web/guards.server";

export function loader({ context }: Route.LoaderArgs) {
  return redirect(getAuth(context) ? href("/dashboard") : href("/login"));
}

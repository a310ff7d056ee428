// /admin itself: the organization list is the admin home.
import { redirect } from "react-router";
import type { Route } from "./+types/admin._index";
import { requirePlatformAdmin } from "~/auth/guards.server";

export async function loader(args: Route.LoaderArgs) {
  await requirePlatformAdmin(args, { fresh: false });
  throw redirect("/admin/organizations");
}

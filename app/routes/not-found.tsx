import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { getInstance } from "~/i18n/i18next.server";

export function loader({ context }: Route.LoaderArgs) {
  throw data({ code: "NOT_FOUND", message: getInstance(context).t("errors:notFound") }, { status: 404 });
}

export async function action({ context }: Route.ActionArgs) {
  throw data({ code: "NOT_FOUND", message: getInstance(context).t("errors:notFound") }, { status: 404 });
}

export default function NotFound() {
  return null;
}

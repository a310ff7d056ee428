// The organization switch as a route action: the app shell's switcher posts it to /dashboard, and
// /dashboard?index (the URL it always had) answers it too. Unknown organization 404, someone
// else's 403, then back to the dashboard.
import { href, redirect, type RouterContextProvider } from "react-router";
import { z } from "zod";
import { switchActiveOrganization } from "~/organizations/organizations.server";
import { parseForm } from "./forms.server";
import { requireUser } from "./guards.server";
import { badRequest, orHttpError } from "./http-errors.server";

// A missing id is "no such organization" (404), like any other id we do not know.
const switchSchema = z.object({ intent: z.literal("switch"), organizationId: z.string().max(64).default("") });

export async function switchOrganizationAction(args: { request: Request; context: Readonly<RouterContextProvider> }) {
  const auth = requireUser(args);
  const { submission } = await parseForm(args, switchSchema);
  if (submission.status !== "success") throw badRequest(args.context);
  await orHttpError(args.context, () => switchActiveOrganization(auth, submission.value.organizationId));
  return redirect(href("/dashboard"));
}

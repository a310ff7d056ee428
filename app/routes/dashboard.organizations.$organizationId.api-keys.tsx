// Where a mailed key link lands (the expiry reminders, decision 0058): the keys page of the key's
// organization, filtered to the key (`q`, the name-or-prefix filter of the keys page). When that
// organization is already active, straight there. When another one is (a person in several
// organizations), this page asks first: switching on a GET would let any other site switch the
// organization someone works in, and acting in the wrong organization is the harm to avoid. Not
// a member: the app's 403/404, as for any organization of someone else.
import { href, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/dashboard.organizations.$organizationId.api-keys";
import { authorizeOrganization } from "~/access/organization-access.server";
import { organizationsOf } from "~/access/memberships.server";
import { OpenInOrganization } from "~/api-keys/ui/open-in-organization";
import { ErrorPanel } from "~/components/error-page";
import { titleMeta } from "~/components/page-title";
import { translatorFor } from "~/i18n/i18next.server";
import { switchActiveOrganization } from "~/organizations/organizations.server";
import { parseForm } from "~/web/forms.server";
import { requireUser } from "~/web/guards.server";
import { badRequest, orHttpError } from "~/web/http-errors.server";

/** The filter carried along: a prefix or a name; anything else (control characters, a length no
 * name or prefix has) is dropped, and the keys page reads it again by its own rules. */
const filterSchema = z
  .string()
  .trim()
  .max(100)
  .regex(/^\P{Cc}*$/u)
  .catch("");
const switchSchema = z.object({ intent: z.literal("switch"), q: z.string().max(1000).default("") });

function keysPage(q: string): string {
  const filter = filterSchema.parse(q);
  const page = href("/dashboard/organization-settings/api-keys");
  return filter ? `${page}?q=${encodeURIComponent(filter)}` : page;
}

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  const q = filterSchema.parse(new URL(args.request.url).searchParams.get("q") ?? "");
  const { organization } = await orHttpError(args.context, () =>
    authorizeOrganization(auth, args.params.organizationId, undefined, { requireActive: false }),
  );
  if (auth.session.activeOrganizationId === organization.id) throw redirect(keysPage(q));
  const current = (await organizationsOf(auth)).find((o) => o.id === auth.session.activeOrganizationId)?.name ?? null;
  const title = translatorFor(args.context)("apiKeys:openInOrganization.title", { organization: organization.name });
  return { title, organization: organization.name, current, q };
}

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  const { submission } = await parseForm(args, switchSchema);
  if (submission.status !== "success") throw badRequest(args.context);
  await orHttpError(args.context, () => switchActiveOrganization(auth, args.params.organizationId));
  return redirect(keysPage(submission.value.q));
}

export default function OpenKeysInOrganization({ loaderData }: Route.ComponentProps) {
  return <OpenInOrganization organization={loaderData.organization} current={loaderData.current} q={loaderData.q} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}

// Organization-scoped procedures. The input names the organization; once it is validated (so a
// malformed request is a 400 whoever sends it, before any access check), the caller's access is
// checked (app/access/organization-access.server.ts) and the handler receives the checked value
// as `context.access`: no handler checks an id itself.
//
//   organizationProcedure("apiKey:manage").input(keyIdInput).handler(({ context, input }) => revokeKey(context.access, input.keyId))
import type { Schema } from "@orpc/server";
import { authorizeOrganization, type OrganizationAccess } from "~/access/organization-access.server";
import type { Permission } from "~/access/permissions";
import type { Auth } from "~/auth/session.server";
import { noteOrganization, sessionProcedure } from "./base.server";

/** An input schema that names the organization the procedure acts on. */
export type OrganizationInputSchema = Schema<unknown, { organizationId: string }>;

function checkedWith<P extends Permission>(check: (auth: Auth, organizationId: string) => Promise<OrganizationAccess<P>>) {
  return {
    input: <S extends OrganizationInputSchema>(schema: S) =>
      sessionProcedure
        .input(schema)
        .use(noteOrganization)
        .use(async ({ context, next }, input: { organizationId: string }) =>
          next({ context: { access: await check(context.auth, input.organizationId) } }),
        ),
  };
}

export type OrganizationProcedure<P extends Permission> = ReturnType<typeof checkedWith<P>>;

/** Any member of the organization (it must be the session's active one). */
export function organizationProcedure(): OrganizationProcedure<never>;
/** A member whose role holds `permission`. */
export function organizationProcedure<P extends Permission>(permission: P): OrganizationProcedure<P>;
export function organizationProcedure(permission?: Permission): OrganizationProcedure<Permission> | OrganizationProcedure<never> {
  return permission === undefined
    ? checkedWith((auth, organizationId) => authorizeOrganization(auth, organizationId))
    : checkedWith((auth, organizationId) => authorizeOrganization(auth, organizationId, permission));
}

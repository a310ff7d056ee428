// The typed RPC surface at /rpc (CONTRACT.md). Procedures are thin: they parse input with zod and
// call the domain modules that the pages' actions call too.
import { z } from "zod";
import { sessionProcedure } from "./base.server";
import { createOrganization, listOrganizationsOf, switchActiveOrganization } from "~/organizations/organizations.server";
import { organizationInputSchema } from "~/organizations/schemas";
import { uuidSchema } from "~/lib/ids";

const organization = {
  list: sessionProcedure
    .input(z.object({}).strict().optional())
    .handler(({ context }) => listOrganizationsOf(context.auth.user.id)),
  create: sessionProcedure
    .input(organizationInputSchema)
    .handler(({ context, input }) => createOrganization(context.auth, input)),
  setActive: sessionProcedure
    .input(z.object({ organizationId: uuidSchema }).strict())
    .handler(({ context, input }) => switchActiveOrganization(context.auth, input.organizationId)),
};

export const router = { organization };
export type Router = typeof router;

// Authorization is a type: these calls must not compile. `npm test` runs tsc first, and an
// `@ts-expect-error` with no error under it fails the type check; the runtime part only checks
// that the proofs cannot be conjured at run time either (they come from the checks alone).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { listKeys, issueKey } from "~/api-keys/api-keys.server";
import type { listAuditEvents } from "~/audit/query.server";
import type { listMembers } from "~/organizations/members.server";
import type { authorizeOrganization, OrganizationAccess, SupportAccess } from "~/access/organization-access.server";
import type { Auth } from "~/auth/session.server";
import type { requireActiveOrganization } from "~/web/guards.server";
import type { organizationProcedure } from "~/rpc/organization-procedure.server";

declare const member: OrganizationAccess;
declare const auditor: OrganizationAccess<"audit:view">;
declare const keyManager: OrganizationAccess<"apiKey:manage">;
declare const both: OrganizationAccess<"apiKey:manage" | "audit:view">;
declare const support: SupportAccess;
declare const list: typeof listKeys;
declare const issue: typeof issueKey;
declare const members: typeof listMembers;
declare const auditList: typeof listAuditEvents;
declare const authorize: typeof authorizeOrganization;
declare const requireActive: typeof requireActiveOrganization;
declare const auth: Auth;
declare const guardArgs: Parameters<typeof requireActiveOrganization>[0];
declare const procedure: typeof organizationProcedure;

export function typeChecks() {
  const organization = {
    id: "6f1c1f1e-9a1b-4c47-9f57-0c9a4e1f2b3c",
    name: "x",
    slug: "x",
    logoId: null,
    planId: "free",
    billingState: "active",
    requireTwoFactor: false,
  };
  const user = { id: "u", email: "e", name: "n", isPlatformAdmin: false, twoFactorEnabled: false, emailVerified: true };
  // @ts-expect-error an organization id (or a hand-made object) is not access
  void list({ organization, role: "owner", user });
  // @ts-expect-error access proven for audit:view does not manage keys
  void issue(auditor, { name: "k", scopes: ["audit:view"] });
  // @ts-expect-error mere membership does not read the audit log
  void auditList(member, { filters: {} });
  // A check that names no permission proves membership only, wherever its result is used.
  void (async () => {
    // @ts-expect-error no permission named: not a key manager
    void list(await authorize(auth, "org"));
    // @ts-expect-error no permission named: not an audit reader
    void auditList(await authorize(auth, "org"), { filters: {} });
    // @ts-expect-error a permission cannot be asserted by a type argument alone
    void list(await authorize<"apiKey:manage">(auth, "org"));
    // @ts-expect-error the page guard works the same way
    void list(await requireActive(guardArgs));
    void list(await authorize(auth, "org", "apiKey:manage"));
    void list(await requireActive(guardArgs, "apiKey:manage"));
    void members(await authorize(auth, "org"));
  })();
  // Proven for more permissions is accepted where fewer are needed, and for membership reads.
  void list(keyManager);
  void list(both);
  void auditList(both, { filters: {} });
  void members(keyManager);
  // Support reads the audit log, but is not a member of anything.
  void auditList(support, { filters: {} });
  // @ts-expect-error support access is not membership
  void members(support);
  // A procedure's context.access is proven for the permission its organizationProcedure named.
  const organizationIdOnly = z.object({ organizationId: z.string() });
  void procedure("audit:view")
    .input(organizationIdOnly)
    .handler(({ context }) => {
      // @ts-expect-error a procedure for audit readers does not manage keys
      void list(context.access);
      return auditList(context.access, { filters: {} });
    });
  void procedure()
    .input(organizationIdOnly)
    .handler(({ context }) => {
      // @ts-expect-error a procedure for any member does not read the audit log
      void auditList(context.access, { filters: {} });
      return members(context.access);
    });
  // @ts-expect-error an organization procedure's input names its organization
  void procedure("apiKey:manage").input(z.object({ keyId: z.string() }));
}

describe("access values", () => {
  it("are only created by the checks (the module exports no constructor)", async () => {
    const module = await import("~/access/organization-access.server");
    // accessFor only narrows a value a check made, by the role that check loaded; authorizeAuditExport
    // is the export's check; auditExportBlocker only reads a value a check made; supportAccessOf
    // turns a checked support target into access only when the session's grant is there.
    expect(Object.keys(module).sort()).toEqual([
      "accessFor",
      "accessHas",
      "auditExportBlocker",
      "authorizeAuditExport",
      "authorizeOrganization",
      "authorizePlatformAdmin",
      "authorizeSupport",
      "findSupportTarget",
      "supportAccessOf",
    ]);
  });
});

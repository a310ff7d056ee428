// The link back to an organization's support page, on every page under it (access, audit log, plan).
import { href, Link } from "react-router";

export function BackToOrganization({ organization }: { organization: { id: string; name: string } }) {
  return (
    <Link
      to={href("/admin/organizations/:organizationId", { organizationId: organization.id })}
      className="text-sm font-medium text-slate-600 hover:text-slate-900"
    >
      ← {organization.name}
    </Link>
  );
}

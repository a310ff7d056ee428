// The organization's members: name, e-mail, role, two-factor status and join date. Those who may
// manage members change roles here (a small form per row) and remove people (confirmed first).
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { Badge, Button, Card, controlClass } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import type { Role } from "~/generated/prisma/enums";
import type { MemberView } from "~/organizations/members.server";
import { ConfirmTrigger } from "./member-confirmation";
import { MEMBERS_PAGE_PATH } from "./members-page";

export interface MembersTableProps {
  members: MemberView[];
  currentUserId: string;
  /** The caller's role when they may manage members, else null (read-only list). */
  managerRole: Role | null;
  assignableRoles: Role[];
}

/** Owners' rows are managed by owners only; nobody manages their own row here (they leave instead). */
function canManageRow(managerRole: Role | null, member: MemberView, currentUserId: string): boolean {
  if (!managerRole || member.userId === currentUserId) return false;
  return member.role !== "owner" || managerRole === "owner";
}

function RoleForm({ member, roles }: { member: MemberView; roles: Role[] }) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const busy = useNavigation().state !== "idle";
  const id = `role-${member.userId}`;
  return (
    <Form
      method="post"
      action={MEMBERS_PAGE_PATH}
      className="flex flex-col items-stretch gap-2 sm:flex-row sm:items-center"
      preventScrollReset
    >
      <input type="hidden" name="intent" value="role" />
      <input type="hidden" name="userId" value={member.userId} />
      <label htmlFor={id} className="sr-only">
        {t("members.roleFor", { name: member.name })}
      </label>
      {/* Never narrower than its longest role name: on phones the column is narrow, and German's
          "Administrator" was cut off. */}
      <select id={id} name="role" defaultValue={member.role} className={`${controlClass} min-w-max sm:w-auto`}>
        {roles.map((role) => (
          <option key={role} value={role}>
            {tc(`roles.${role}`)}
          </option>
        ))}
      </select>
      <Button type="submit" variant="secondary" size="sm" disabled={busy}>
        {t("members.changeRole")}
      </Button>
    </Form>
  );
}

export function MembersTable({ members, currentUserId, managerRole, assignableRoles }: MembersTableProps) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const formats = useFormats();
  return (
    <Card title={t("settings.members")} description={t("settings.memberCount", { count: members.length })}>
      <div className="-mx-5 -my-5 overflow-x-auto">
        <table className="min-w-full text-sm" data-testid="members-table">
          <thead className="bg-slate-50">
            <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              {/* The same 24 px between columns as elsewhere; on phones the role column is the last one
                  shown, so it keeps the card's 20 px edge, like the name column on the left. */}
              <th scope="col" className="pl-5 pr-3 py-2.5">
                {t("settings.memberName")}
              </th>
              <th scope="col" className="pl-3 pr-5 py-2.5 md:pr-3">
                {t("settings.memberRole")}
              </th>
              <th scope="col" className="hidden px-3 py-2.5 md:table-cell">
                {t("settings.twoFactor")}
              </th>
              <th scope="col" className="hidden px-3 py-2.5 md:table-cell">
                {t("settings.memberSince")}
              </th>
              {managerRole ? (
                <th scope="col" className="hidden px-5 py-2.5 md:table-cell">
                  <span className="sr-only">{t("members.actions")}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {members.map((member) => {
              const manageable = canManageRow(managerRole, member, currentUserId);
              // A role outside what the caller may hand out (an owner, for an admin) is never offered.
              const roles = assignableRoles.includes(member.role) ? assignableRoles : [member.role, ...assignableRoles];
              return (
                <tr key={member.userId} data-testid={`member-${member.email}`}>
                  <td className="min-w-[8.5rem] pl-5 pr-3 py-3">
                    <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">
                      {member.name}
                      {member.userId === currentUserId ? (
                        <span className="ml-1 font-normal text-slate-500">({t("members.you")})</span>
                      ) : null}
                    </p>
                    <p className="text-slate-500 [overflow-wrap:anywhere]">{member.email}</p>
                    <p className="text-slate-500 md:hidden">{t("members.joined", { date: formats.date(member.joinedAt) })}</p>
                  </td>
                  <td className="pl-3 pr-5 py-3 md:pr-3">
                    {manageable ? (
                      <div className="space-y-2">
                        <RoleForm member={member} roles={roles} />
                        {/* On narrow screens the action column is hidden: Remove sits under the role. */}
                        <div className="md:hidden">
                          <ConfirmTrigger confirm={{ intent: "remove", userId: member.userId, name: member.name }} />
                        </div>
                      </div>
                    ) : (
                      <Badge tone={member.role === "member" ? "slate" : "brand"}>{tc(`roles.${member.role}`)}</Badge>
                    )}
                  </td>
                  <td className="hidden whitespace-nowrap px-3 py-3 md:table-cell">
                    <Badge tone={member.twoFactor ? "green" : "amber"}>
                      {member.twoFactor ? t("settings.twoFactorEnabled") : t("settings.twoFactorDisabled")}
                    </Badge>
                  </td>
                  <td className="hidden whitespace-nowrap px-3 py-3 text-slate-600 md:table-cell">{formats.date(member.joinedAt)}</td>
                  {managerRole ? (
                    <td className="hidden px-5 py-3 text-right md:table-cell">
                      {manageable ? <ConfirmTrigger confirm={{ intent: "remove", userId: member.userId, name: member.name }} /> : null}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

// The organization's members: name, e-mail, role, two-factor status and join date.
import { useTranslation } from "react-i18next";
import { Badge, Card } from "~/components/ui";
import { useFormats } from "~/components/use-formats";
import type { Role } from "~/generated/prisma/enums";

export interface MemberRow {
  id: string;
  name: string;
  email: string;
  role: Role;
  since: string;
  twoFactor: boolean;
}

export function MembersTable({ members }: { members: MemberRow[] }) {
  const { t } = useTranslation("organizations");
  const { t: tc } = useTranslation("common");
  const formats = useFormats();
  return (
    <Card title={t("settings.members")} description={t("settings.memberCount", { count: members.length })}>
      <div className="-mx-5 -my-5 overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50">
            <tr className="text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
              <th scope="col" className="px-5 py-2.5">
                {t("settings.memberName")}
              </th>
              <th scope="col" className="px-3 py-2.5">
                {t("settings.memberRole")}
              </th>
              <th scope="col" className="hidden px-3 py-2.5 sm:table-cell">
                {t("settings.twoFactor")}
              </th>
              <th scope="col" className="hidden px-5 py-2.5 sm:table-cell">
                {t("settings.memberSince")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {members.map((member) => (
              <tr key={member.id}>
                <td className="px-5 py-3">
                  <p className="font-medium text-slate-900">{member.name}</p>
                  <p className="break-all text-slate-500">{member.email}</p>
                </td>
                <td className="px-3 py-3">
                  <div className="flex flex-col items-start gap-1">
                    <Badge tone={member.role === "member" ? "slate" : "brand"}>{tc(`roles.${member.role}`)}</Badge>
                    <span className="sm:hidden">
                      <Badge tone={member.twoFactor ? "green" : "amber"}>
                        {t("settings.twoFactor")}: {member.twoFactor ? t("settings.twoFactorEnabled") : t("settings.twoFactorDisabled")}
                      </Badge>
                    </span>
                  </div>
                </td>
                <td className="hidden whitespace-nowrap px-3 py-3 sm:table-cell">
                  <Badge tone={member.twoFactor ? "green" : "amber"}>
                    {member.twoFactor ? t("settings.twoFactorEnabled") : t("settings.twoFactorDisabled")}
                  </Badge>
                </td>
                <td className="hidden whitespace-nowrap px-5 py-3 text-slate-600 sm:table-cell">{formats.date(member.since)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

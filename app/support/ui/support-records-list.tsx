// The support records as people read them: one card per record on phones, a table on wider
// screens; names of deleted admins and organizations marked, views linked to what they showed.
import { href, Link } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { LocalTime } from "~/components/local-time";
import type { SupportRecord } from "~/support/support.server";
import { AUDIT_FILTER_NAMES, AUDIT_FILTERS, type AuditFilterName } from "~/audit/audit-query";
import { useActionLabel } from "~/audit/ui/row-labels";
import { planName } from "~/plans/catalog";
import { parsePlanChangeSubject } from "~/support/plan-change-subject";

/** What a record says was viewed, as people read it: the list's filters by their labels (an
 * action by its name), or the event; each linked to the same view. */
function What({ record }: { record: SupportRecord }) {
  const { t } = useTranslation(["admin", "audit"]);
  const actionLabel = useActionLabel();
  const organizationId = record.organization.id;
  if (record.action === "audit_log.listed" && organizationId) {
    const filters = [...new URLSearchParams(record.subject ?? "")]
      .filter(([name]) => isAuditFilterName(name))
      .map(
        ([name, value]) =>
          `${t(`audit:${AUDIT_FILTERS[name as AuditFilterName].label}`)}: ${name === "action" ? actionLabel(value) : value}`,
      );
    return (
      <Link
        to={`${href("/admin/organizations/:organizationId/audit-log", { organizationId })}${record.subject ? `?${record.subject}` : ""}`}
        className="break-words text-brand-600 hover:text-brand-700"
      >
        {filters.length ? filters.join(" · ") : t("records.allEvents")}
      </Link>
    );
  }
  if (record.action === "audit_event.viewed" && organizationId && record.subject) {
    return (
      <Link
        to={`${href("/admin/organizations/:organizationId/audit-log", { organizationId })}?event=${record.subject}`}
        title={record.subject}
        className="text-brand-600 hover:text-brand-700"
      >
        {t("records.event", { id: record.subject.slice(0, 8) })}
      </Link>
    );
  }
  if (record.action === "billing.plan_set" && record.subject) {
    const { from, to } = parsePlanChangeSubject(record.subject);
    return <span>{t("setPlan.recordSubject", { from: planName(from), to: planName(to) })}</span>;
  }
  return <span className="text-slate-500">—</span>;
}

const isAuditFilterName = (name: string): name is AuditFilterName => (AUDIT_FILTER_NAMES as string[]).includes(name);

function Admin({ record }: { record: SupportRecord }) {
  const { t } = useTranslation("admin");
  return record.admin.name ?? <span className="text-slate-500">{`${t("records.deletedAdmin")} · ${record.admin.id}`}</span>;
}

function Organization({ record }: { record: SupportRecord }) {
  const { t } = useTranslation("admin");
  const { id, name } = record.organization;
  if (id && name)
    return (
      <Link to={href("/admin/organizations/:organizationId", { organizationId: id })} className="text-brand-600 hover:text-brand-700">
        {name}
      </Link>
    );
  return <span className="break-all text-slate-500">{`${t("records.deletedOrganization")} · ${id ?? "—"}`}</span>;
}

const COLUMNS = ["time", "admin", "organizationColumn", "action", "what", "reason", "ticket"] as const;

export function SupportRecordsList({ records }: { records: SupportRecord[] }) {
  const { t } = useTranslation("admin");
  const actionLabel = (record: SupportRecord) => t(`records.actions.${record.action}`, { defaultValue: record.action });
  return (
    <>
      {/* Phones: one card per record; wider screens: a table. */}
      <ul className="-my-3 divide-y divide-slate-100 md:hidden" aria-label={t("records.title")}>
        {records.map((record) => (
          <li key={record.id} className="space-y-1 py-3 text-sm">
            <p className="font-medium text-slate-900">{actionLabel(record)}</p>
            <p className="text-slate-600">
              <LocalTime iso={record.createdAt} /> · <Admin record={record} /> · <Organization record={record} />
            </p>
            <p className="break-words">
              <span className="font-medium">{t("records.reason")}:</span> {record.reason}
              {record.ticket ? ` · ${t("records.ticket")}: ${record.ticket}` : ""}
            </p>
            {record.subject ? (
              <p className="break-words">
                <What record={record} />
              </p>
            ) : null}
          </li>
        ))}
      </ul>
      <table className="hidden min-w-full divide-y divide-slate-200 text-left text-sm md:table">
        <caption className="sr-only">{t("records.title")}</caption>
        <thead>
          <tr className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="px-3 py-2">
                {t(`records.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">
          {records.map((record) => (
            <tr key={record.id}>
              <td className="px-3 py-2 text-slate-600">
                <LocalTime iso={record.createdAt} />
              </td>
              <td className="px-3 py-2">
                <Admin record={record} />
              </td>
              <td className="px-3 py-2">
                <Organization record={record} />
              </td>
              <td className="px-3 py-2">{actionLabel(record)}</td>
              <td className="max-w-56 px-3 py-2 break-words">
                <What record={record} />
              </td>
              <td className="max-w-72 px-3 py-2 break-words">{record.reason}</td>
              <td className="px-3 py-2 whitespace-nowrap">{record.ticket ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

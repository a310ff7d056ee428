// What an action's details mean to a reader, in one place: how stored details become label/value
// rows (`presentDetails`, for the drawer) and how each detail field's values read
// (`detailValueLabel`). The catalog (app/audit/catalog.ts) says what each action may record; a
// field's label is `audit:details.<field>` in the locale files; everything else about showing a
// field is here. No server dependencies: the drawer computes its rows in the browser from the
// event's details, so the page's loader ships the details once, never the rows too.
import type { Translate } from "~/i18n/keys";
import { z } from "zod";
import { actionLabelKey, auditCatalog, isAuditAction, type AuditAction } from "~/audit/catalog";
import { Role } from "~/generated/prisma/enums";
import { planName } from "~/plans/catalog";

export type DetailValue =
  | { kind: "text"; value: string }
  | { kind: "list"; value: string[] }
  | { kind: "datetime"; value: string }
  | { kind: "change"; from: string; to: string }
  /** A set of named values (the export's filters): each shown with its own label. */
  | { kind: "named"; value: { field: string; labelKey: string; value: string }[] }
  | { kind: "json"; value: string };

export interface DetailRow {
  field: string;
  /** A key under `audit:`. */
  labelKey: string;
  value: DetailValue;
}

/** Detail fields whose object value is a set of named values, never a change: the export's
 * filters may hold exactly `from` and `to`, which would otherwise read as "from → to". */
const NAMED_VALUE_FIELDS = new Set(["filters"]);

/**
 * Actions whose details hold a change as two top-level fields `from` and `to`: shown as one row
 * under this field's label, previous value first ("Role: Member → Admin"), never as two rows.
 */
const TOP_LEVEL_CHANGE: Partial<Record<AuditAction, string>> = { "member.role_changed": "role" };

/** The catalog's order of an action's detail fields: stored details are JSONB, whose keys come
 * back shortest first ("to" before "from"), not in the order anyone wrote or reads them. */
function fieldOrder(action: AuditAction): string[] {
  const schema: z.ZodType = auditCatalog[action].details;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/**
 * Detail rows for the UI: values are raw (the view reads them through `detailValueLabel` and
 * formats dates in the page's language). Unknown actions or details that no longer match their
 * schema fall back to the JSON, so history always renders.
 */
export function presentDetails(action: string, details: unknown): DetailRow[] {
  if (!isAuditAction(action) || typeof details !== "object" || details === null || Array.isArray(details)) {
    return [{ field: "details", labelKey: "audit:details.raw", value: { kind: "json", value: JSON.stringify(details) } }];
  }
  const rows: DetailRow[] = [];
  const show = (v: unknown): string => (v === null || v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));
  const order = fieldOrder(action);
  const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length);
  let entries = Object.entries(details as Record<string, unknown>).sort(([a], [b]) => rank(a) - rank(b));
  const changeField = TOP_LEVEL_CHANGE[action];
  const record = details as Record<string, unknown>;
  if (changeField && "from" in record && "to" in record) {
    rows.push({
      field: changeField,
      labelKey: `audit:details.${changeField}`,
      value: { kind: "change", from: show(record.from), to: show(record.to) },
    });
    entries = entries.filter(([field]) => field !== "from" && field !== "to");
  }
  for (const [field, value] of entries) {
    const labelKey = `audit:details.${field}`;
    if (Array.isArray(value)) rows.push({ field, labelKey, value: { kind: "list", value: value.map(show) } });
    else if (NAMED_VALUE_FIELDS.has(field) && value !== null && typeof value === "object") {
      const named = Object.entries(value as Record<string, unknown>).map(([name, v]) => ({
        field: name,
        labelKey: `audit:details.${name}`,
        value: show(v),
      }));
      rows.push({ field, labelKey, value: { kind: "named", value: named } });
    } else if (value && typeof value === "object" && "from" in value && "to" in value) {
      rows.push({ field, labelKey, value: { kind: "change", from: show(value.from), to: show(value.to) } });
    } else if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value))
      rows.push({ field, labelKey, value: { kind: "datetime", value } });
    else if (value !== null && typeof value === "object")
      rows.push({ field, labelKey, value: { kind: "json", value: JSON.stringify(value) } });
    else rows.push({ field, labelKey, value: { kind: "text", value: show(value) } });
  }
  return rows;
}

/** How one field's values read, or null where a value is not one of the field's identifiers. */
type ValueReading = (t: Translate<"audit">, value: string) => string | null;

const role: ValueReading = (t, value) => t(`common:roles.${value}`, { defaultValue: value });

/**
 * The detail fields whose values are identifiers, by field name (the same name means the same
 * thing in every action): each is shown by its translated label, never as the raw identifier.
 * A value unknown to its vocabulary (a plan the catalog dropped) shows its identifier.
 */
const FIELD_VALUES: Record<string, ValueReading> = {
  role,
  // member.role_changed's roles. The export's filters also have `from` and `to`: dates, shown as they are.
  from: (t, value) => (Object.hasOwn(Role, value) ? role(t, value) : null),
  to: (t, value) => (Object.hasOwn(Role, value) ? role(t, value) : null),
  scopes: (t, value) => t(`apiKeys:scopes.${value.replace(":", "_")}`, { defaultValue: value }),
  reason: (t, value) => t(`audit:values.reason.${value}`, { defaultValue: value }),
  format: (t, value) => t(`audit:values.format.${value}`, { defaultValue: value }),
  // Plans by the catalog's name (a plan no longer in it shows its id).
  plan: (_t, value) => planName(value),
  state: (t, value) => t(`audit:values.billingState.${value}`, { defaultValue: value }),
  action: (t, value) => t(actionLabelKey(value), { defaultValue: value }),
  // Audit streams: the kind and the test's outcome by their labels, a start "now" in words (a
  // replay's day is shown as it is), changed settings by their field labels.
  kind: (t, value) => t(`audit:values.stream.kind.${value}`, { defaultValue: value }),
  outcome: (t, value) => t(`audit:values.stream.outcome.${value}`, { defaultValue: value }),
  start: (t, value) => (value === "now" ? t("audit:values.stream.startNow") : null),
  changedSettings: (t, value) => t(`audit:values.stream.setting.${value}`, { defaultValue: value }),
};

/** A detail value as people read it: identifiers by their labels, booleans as yes/no, the rest as stored. */
export function detailValueLabel(t: Translate<"audit">, field: string, value: string): string {
  const reading = Object.hasOwn(FIELD_VALUES, field) ? (FIELD_VALUES[field]?.(t, value) ?? null) : null;
  if (reading !== null) return reading;
  if (value === "true") return t("audit:values.yes");
  if (value === "false") return t("audit:values.no");
  return value;
}

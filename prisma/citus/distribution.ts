// Where each table would live on a Citus cluster (docs/scale-out.md, docs/decisions/0051-citus-placement.md).
// One list, read by the catalog test (tests/integration/citus-rules.test.ts: the migrated schema keeps
// Citus's rules for these placements) and by the distribution script (prisma/citus/distribute.sql,
// written from this list by `distributionScript`, compared with it by the same test).
//
// - distributed: sharded by `column`; tables in one colocation group (`colocateWith` the group's
//   first table) keep a tenant's rows of every table on the same node, so joins and foreign keys
//   between them stay on one shard;
// - reference: one copy on every node; for small tables that every request reads and few write, and
//   for the lookups of values that are unique across tenants;
// - local: stays on the coordinator (where every request starts), for what is not tenant data: the
//   platform's own records, and small hot tables read by a key that is not an organization.

export type Placement =
  | { kind: "distributed"; column: string; colocateWith?: string; why: string }
  | { kind: "reference"; why: string }
  | { kind: "local"; why: string };

const tenantData = (why: string): Placement => ({ kind: "distributed", column: "organization_id", colocateWith: "api_keys", why });

/** Every table of the `public` schema. The order is the order the script converts them in: reference
 * tables before the tables whose foreign keys point at them, a group's first table before the rest. */
export const PLACEMENTS = {
  users: { kind: "reference", why: "people sign in by e-mail and belong to any number of organizations" },
  password_resets: { kind: "reference", why: "per person, found by token hash" },
  email_verifications: { kind: "reference", why: "per person, found by token hash" },
  email_changes: { kind: "reference", why: "per person, found by token hash" },
  recovery_codes: { kind: "reference", why: "per person" },
  server_secrets: { kind: "reference", why: "a handful of server-wide keys read at start" },
  organizations: {
    kind: "reference",
    why: "read on every request beside the user's memberships; one small row per tenant, rarely written",
  },
  memberships: {
    kind: "reference",
    why: "every page reads the signed-in user's organizations: by user, across tenants; written only when people join, leave or change role",
  },
  organization_slugs: { kind: "reference", why: "a slug is unique across organizations: the lookup keyed by it (decision 0050)" },
  invitation_tokens: { kind: "reference", why: "a mailed link's token hash finds its organization before its invitation" },
  billing_provider_event_ids: { kind: "reference", why: "a payment event id is applied once across organizations" },
  api_key_legacy_secrets: {
    kind: "reference",
    why: "a 52-character secret (issued before secrets named their organization) finds its organization by its hash (decision 0048)",
  },
  api_keys: {
    kind: "distributed",
    column: "organization_id",
    why: "the tenant data's first table: keys, read and written per organization",
  },
  api_key_leak_reports: tenantData("a key's leak report from a secret scanner, kept beside its key"),
  audit_events: tenantData("the audit log, the largest table, read and written per organization"),
  audit_event_days: tenantData("the activity chart's counts per organization"),
  audit_event_actors: tenantData("the audit filter's actors per organization"),
  audit_event_users: tenantData("the people an organization's log names"),
  invitations: tenantData("pending invitations per organization"),
  organization_logos: tenantData("uploaded logos per organization"),
  billing_provider_events: tenantData("payment events applied per organization"),
  audit_streams: tenantData("an organization's audit log destinations; the delivery job reads a stream with its organization's events"),
  audit_stream_failures: tenantData("a stream's recent delivery failures, kept beside their stream"),
  audit_digests: tenantData("the signed digests of an organization's audit log, read with its events"),
  api_key_expiry_reminders: tenantData("the expiry reminders planned for an organization's keys, beside their keys"),
  sessions: {
    kind: "local",
    why: "found by the cookie's token hash on every request and by person (their sessions, sign-out everywhere): on the coordinator, where every request starts, neither scatters",
  },
  support_access_grants: { kind: "local", why: "the support admin's grants, read with their session on each of their requests" },
  rate_limits: { kind: "local", why: "one row per limiter key, written on every limited request; swept by expiry" },
  support_actions: {
    kind: "local",
    why: "the platform's own support records, not tenant data; read across organizations by platform admins",
  },
  _prisma_migrations: { kind: "local", why: "the migrator's bookkeeping" },
} as const satisfies Record<string, Placement>;

export type PlacedTable = keyof typeof PLACEMENTS;

export function placementOf(table: string): Placement | undefined {
  return (PLACEMENTS as Record<string, Placement>)[table];
}

/** The colocation group a distributed table belongs to, named by its first table. */
export function colocationGroup(table: string): string | undefined {
  const placement = placementOf(table);
  if (placement?.kind !== "distributed") return undefined;
  return placement.colocateWith ?? table;
}

function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The script that distributes a migrated database on a Citus coordinator (prisma/citus/distribute.sql). */
export function distributionScript(): string {
  const lines = [
    "-- Distributes KeyLedger's tables on a Citus cluster: run once, as the tables' owner, on the coordinator,",
    "-- after `npm run db:migrate` and before the app serves (docs/scale-out.md). Written from",
    "-- prisma/citus/distribution.ts by `npm run citus:script`; tests/integration/citus-rules.test.ts keeps the",
    "-- two the same and the schema within Citus's rules for these placements.",
    "BEGIN;",
  ];
  for (const [table, placement] of Object.entries(PLACEMENTS) as [string, Placement][]) {
    if (placement.kind === "reference") lines.push(`SELECT create_reference_table(${quote(table)});`);
    if (placement.kind === "distributed") {
      const colocate = placement.colocateWith ? `, colocate_with => ${quote(placement.colocateWith)}` : ", colocate_with => 'none'";
      lines.push(`SELECT create_distributed_table(${quote(table)}, ${quote(placement.column)}${colocate});`);
    }
  }
  const local = Object.entries(PLACEMENTS as Record<string, Placement>)
    .filter(([, placement]) => placement.kind === "local")
    .map(([table]) => table);
  lines.push(`-- Stay on the coordinator: ${local.join(", ")}, and the job queue's schema graphile_worker. Those with`);
  lines.push(
    "-- foreign keys to reference tables become Citus local tables by themselves (citus.enable_local_reference_table_foreign_keys).",
  );
  lines.push("COMMIT;", "");
  return lines.join("\n");
}

// The names an export shows for actors and targets, resolved at export time: read once, in the
// export's snapshot, before the COPY, and looked up per row in memory with the conditions of the
// view's lookups (app/audit/query.server.ts, nameJoins), so the file and the page always agree
// (docs/decisions/0025-audit-export.md, item 2).
import type pg from "pg";
import type { ExportRow, RowNames } from "~/audit/export/export-row";
import { uuidOrNull } from "~/db.server";
import { hyphenatedUuid } from "~/lib/ids";

/**
 * Most names an export holds in memory: the users its organization's log names, the
 * organization's keys, invitations and audit streams (a deleted stream by the name its deletion
 * recorded), and the organization. With the maps' own overhead some
 * 300-400 bytes each, so at most about 20 MB per export (EXPORT_CONNECTIONS run at once). An
 * organization with more is exported with the COPY's own lookups: slower, the same names.
 */
export const NAME_DIRECTORY_LIMIT = 50_000;

/** Everything an organization's rows can name, read in the export's snapshot. The users come from
 * audit_event_users (every user the log names, kept by the recorder with the events); a deleted
 * user's name is NULL, as in the view's lookups. */
const NAME_DIRECTORY_SQL = `
  SELECT 'user' AS kind, n.user_id AS id, CASE WHEN u.deleted_at IS NULL THEN u.name END AS name
    FROM audit_event_users n LEFT JOIN users u ON u.id = ${uuidOrNull("n.user_id")}
   WHERE n.organization_id = $1
  UNION ALL SELECT 'api_key', id::text, name FROM api_keys WHERE organization_id = $1
  UNION ALL SELECT 'invitation', id::text, email FROM invitations WHERE organization_id = $1
  UNION ALL SELECT 'organization', id::text, name FROM organizations WHERE id = $1
  UNION ALL SELECT 'audit_stream', id::text, name FROM audit_streams WHERE organization_id = $1
  UNION ALL SELECT 'audit_stream', target_id, details->>'name' FROM audit_events
             WHERE organization_id = $1 AND action = 'audit_stream.deleted'
  LIMIT $2`;

interface NameEntry {
  kind: string;
  id: string;
  name: string | null;
}

/** A uuid as PostgreSQL's `uuid` input reads it (any case, optional braces, a hyphen allowed after
 * any four digits), in its canonical lowercase spelling; null when it is no uuid. */
const UUID_SPELLING = /^\{?([0-9a-f]{4}(?:-?[0-9a-f]{4}){7})\}?$/i;
function canonicalUuid(id: string): string | null {
  const match = UUID_SPELLING.exec(id);
  if (!match || id.startsWith("{") !== id.endsWith("}")) return null;
  return hyphenatedUuid(match[1]!.replaceAll("-", "").toLowerCase());
}

/** Text as the rows carry it: latin1 of its UTF-8 bytes (see ExportRow). */
const asRowText = (value: string | null): string | null => (value === null ? null : Buffer.from(value, "utf8").toString("latin1"));

/**
 * The names of one organization's actors and targets, looked up per row in memory with the
 * conditions of the view's lookups (app/audit/query.server.ts, nameJoins): a user by the event's
 * id, an API key or invitation only if it is this organization's, the organization only when the
 * target is itself. The row's ids are latin1 slices and the directory's decoded strings: the same
 * for ASCII, which every uuid is (an id that is not ASCII is no uuid and has no name either way).
 */
export class NameDirectory implements RowNames {
  /** Per kind of record (user, api_key, invitation): its names by id. */
  readonly #byKind = new Map<string, Map<string, string | null>>([
    ["user", new Map()],
    ["api_key", new Map()],
    ["invitation", new Map()],
    ["audit_stream", new Map()],
  ]);
  #organizationName: string | null = null;

  constructor(
    private readonly organizationId: string,
    entries: NameEntry[],
  ) {
    for (const { kind, id, name } of entries) {
      if (kind === "organization") this.#organizationName = asRowText(name);
      else this.#byKind.get(kind)?.set(id, asRowText(name));
    }
  }

  /** The name of the record of `kind` with this id; undefined kinds (jobs, webhooks…) have none.
   * Users are listed by the events' own spelling; keys and invitations by their canonical id. */
  #find(kind: string | null, id: string): string | null {
    const names = kind === null ? undefined : this.#byKind.get(kind);
    if (!names) return null;
    const name = names.get(id);
    if (name !== undefined) return name;
    const canonical = kind === "user" ? null : canonicalUuid(id);
    return canonical === null || canonical === id ? null : (names.get(canonical) ?? null);
  }

  actor(row: ExportRow): string | null {
    const kind = row.actorKind();
    return kind === "user" || kind === "api_key" ? this.#find(kind, row.actorId()!) : null;
  }

  target(row: ExportRow): string | null {
    const type = row.targetType();
    const id = row.targetId()!;
    return type === "organization" ? (id === this.organizationId ? this.#organizationName : null) : this.#find(type, id);
  }
}

/** The organization's NameDirectory, read on `client` (in the export's snapshot), or null when it
 * would hold more than `limit` names. */
export async function readNameDirectory(client: pg.ClientBase, organizationId: string, limit: number): Promise<NameDirectory | null> {
  const { rows } = await client.query<NameEntry>(NAME_DIRECTORY_SQL, [organizationId, limit + 1]);
  return rows.length > limit ? null : new NameDirectory(organizationId, rows);
}

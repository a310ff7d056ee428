// Moves the demo history to the moments the story planned. The domain functions ran just now, so
// the database stamped everything with today's clock; this step, in one transaction, gives each
// audit event its step's moment (and a UUIDv7 id of that moment, so id order still follows time),
// and derives every other timestamp from those events, so rows and log agree: a key's creation,
// rotation and revocation times are its events' times, its expiry the planned one (also in its
// `api_key.issued` details, whose content hash is computed again). Audit events are append-only
// for the application's role; this client is the tables' owner (the login that ran the migrations),
// which may change them (docs/decisions/0033-demo-data-and-safe-start.md, 0049-append-only-by-privileges.md).
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { auditContentHash } from "../../app/audit/record.server.ts";
import { recountRollups } from "../../app/audit/rollups.server.ts";
import { INVITATION_LIFETIME_MS } from "../../app/organizations/invitations.server.ts";
import type { Step } from "./timeline.ts";
import type { KeyFacts } from "./world.ts";

interface EventRow {
  id: string;
  action: string;
  actor_kind: string;
  actor_id: string;
  target_type: string;
  target_id: string;
  details: Record<string, unknown>;
}

export interface History {
  /** Each organization's steps, in story order (a lane's marks order only its own events). */
  lanes: { organizationId: string; steps: Step[] }[];
  userIds: string[];
  keys: KeyFacts[];
  /** The story's start: accounts with no event of their own were made then. */
  start: Date;
}

export async function backdate(client: pg.Client, history: History): Promise<number> {
  const expiryOf = new Map(history.keys.map((key) => [key.id, key.expiresAt]));
  const moved: Moves = { oldIds: [], newIds: [], times: [], details: [], hashes: [] };
  for (const lane of history.lanes) await planMoves(client, lane, expiryOf, moved);

  await client.query("BEGIN");
  try {
    await client.query(
      `UPDATE audit_events e SET id = v.new_id, created_at = v.at, details = v.details, content_hash = v.hash
       FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::jsonb[], $5::text[]) AS v(old_id, new_id, at, details, hash)
       WHERE e.id = v.old_id`,
      [moved.oldIds, moved.newIds, moved.times, moved.details, moved.hashes],
    );
    await deriveTimestamps(client, history);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
  return moved.oldIds.length;
}

interface Moves {
  oldIds: string[];
  newIds: string[];
  times: string[];
  details: string[];
  hashes: string[];
}

/** Each of the lane's events, in id order, belongs to the first step whose mark lies above it. */
async function planMoves(client: pg.Client, lane: History["lanes"][number], expiryOf: Map<string, Date | null>, moved: Moves) {
  const { rows } = await client.query<EventRow>(
    `SELECT id::text, action, actor_kind::text, actor_id, target_type, target_id, details
     FROM audit_events WHERE organization_id = $1::uuid ORDER BY id`,
    [lane.organizationId],
  );
  let step = 0;
  let inStep = 0;
  for (const row of rows) {
    while (step < lane.steps.length && row.id > lane.steps[step]!.upTo) {
      step++;
      inStep = 0;
    }
    const planned = lane.steps[step];
    if (!planned) throw new Error(`demo event ${row.id} (${row.action}) was written after the story's last step`);
    // A millisecond apart within a step, so a step's events keep their order.
    const at = planned.at.getTime() + inStep++;
    const details = { ...row.details };
    if (row.action === "api_key.issued" && details.expiresAt !== null) {
      const expiry = expiryOf.get(row.target_id);
      if (!expiry) throw new Error(`no planned expiry for demo key ${row.target_id}`);
      details.expiresAt = expiry.toISOString();
    }
    moved.oldIds.push(row.id);
    moved.newIds.push(uuidv7({ msecs: at, random: randomBytes(16) }));
    moved.times.push(new Date(at).toISOString());
    moved.details.push(JSON.stringify(details));
    moved.hashes.push(
      auditContentHash({
        action: row.action,
        actor: { kind: row.actor_kind, id: row.actor_id },
        target: { type: row.target_type, id: row.target_id },
        details,
      }),
    );
  }
}

/** Every other row's times, from the events just moved (and the story's key facts). */
async function deriveTimestamps(client: pg.Client, history: History) {
  const orgs = history.lanes.map((lane) => lane.organizationId);
  const eventTime = (action: string, target: string) =>
    `(SELECT e.created_at FROM audit_events e WHERE e.organization_id = ANY($1::uuid[]) AND e.action = '${action}' AND e.target_id = ${target} ORDER BY e.created_at DESC LIMIT 1)`;
  // The activity chart's counts follow the events to their days: the days they left are emptied
  // first (as the owner: the app's role may not delete them), then counted again.
  await client.query("DELETE FROM audit_event_days WHERE organization_id = ANY($1::uuid[])", [orgs]);
  await recountRollups(client, orgs);
  await client.query(
    `UPDATE organizations o SET created_at = ${eventTime("organization.created", "o.id::text")} WHERE o.id = ANY($1::uuid[])`,
    [orgs],
  );
  await client.query(
    `UPDATE api_keys k SET created_at = ${eventTime("api_key.issued", "k.id::text")},
       revoked_at = CASE WHEN k.revoked_at IS NULL THEN NULL ELSE ${eventTime("api_key.revoked", "k.id::text")} END,
       expires_at = f.expires_at, last_used_at = f.last_used_at
     FROM unnest($2::uuid[], $3::timestamptz[], $4::timestamptz[]) AS f(id, expires_at, last_used_at)
     WHERE k.id = f.id AND k.organization_id = ANY($1::uuid[])`,
    [orgs, history.keys.map((k) => k.id), history.keys.map((k) => k.expiresAt), history.keys.map((k) => k.lastUsedAt)],
  );
  // A leak report: found when its event says.
  await client.query(
    `UPDATE api_key_leak_reports r SET first_reported_at = ${eventTime("api_key.reported_leaked", "r.api_key_id::text")},
       last_reported_at = ${eventTime("api_key.reported_leaked", "r.api_key_id::text")}
     WHERE r.organization_id = ANY($1::uuid[])`,
    [orgs],
  );
  // An invitation: sent at its event (its mail a few seconds later), open for the usual lifetime,
  // last changed when accepted or canceled.
  await client.query(
    `UPDATE invitations i SET created_at = s.at, last_sent_at = s.at + interval '4 seconds',
       expires_at = s.at + $2::int * interval '1 millisecond',
       updated_at = COALESCE(${eventTime("invitation.accepted", "i.id::text")}, ${eventTime("invitation.canceled", "i.id::text")}, s.at)
     FROM (SELECT target_id, created_at AS at FROM audit_events WHERE organization_id = ANY($1::uuid[]) AND action = 'invitation.sent') s
     WHERE s.target_id = i.id::text`,
    [orgs, INVITATION_LIFETIME_MS],
  );
  // A member since their invitation's acceptance; a founder since the founding.
  await client.query(
    `UPDATE memberships m SET created_at = COALESCE(
       (SELECT e.created_at FROM audit_events e WHERE e.organization_id = m.organization_id AND e.action = 'invitation.accepted'
          AND e.actor_id = m.user_id::text ORDER BY e.created_at DESC LIMIT 1),
       (SELECT o.created_at FROM organizations o WHERE o.id = m.organization_id))
     WHERE m.organization_id = ANY($1::uuid[])`,
    [orgs],
  );
  await client.query(
    `UPDATE billing_provider_events b SET received_at = e.created_at FROM audit_events e
     WHERE b.organization_id = ANY($1::uuid[]) AND e.organization_id = b.organization_id
       AND e.idempotency_key = 'billing-event:' || b.provider || ':' || b.event_id`,
    [orgs],
  );
  // Accounts: made a few minutes before their first act (signing up from the invitation), or at the story's start.
  await client.query(
    `UPDATE users u SET created_at = COALESCE(
       (SELECT min(e.created_at) FROM audit_events e WHERE e.actor_id = u.id::text AND e.organization_id = ANY($1::uuid[])) - interval '7 minutes',
       $3::timestamptz)
     WHERE u.id = ANY($2::uuid[])`,
    [orgs, history.userIds, history.start],
  );
  // Demo addresses count as verified from the moment their accounts were made.
  await client.query("UPDATE users SET email_verified_at = created_at WHERE id = ANY($1::uuid[]) AND email_verified_at IS NOT NULL", [
    history.userIds,
  ]);
}

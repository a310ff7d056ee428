// Test helpers for the audit log's tamper evidence (issue 34): a sealed log of a few digests, and
// the database owner's hand (the login that ran the migrations, which the append-only grants do not
// stop) to tamper with it as an operator could.
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { currentSigningKey } from "~/audit-integrity/signing-keys";
import { sealOrganization } from "~/audit-integrity/seal.server";
import { recordAuditEvent } from "~/audit/record.server";
import { prisma } from "~/db.server";
import { withClient } from "../scripts/lib/pg-client.ts";
import { createOrganizationWith, createUser } from "./factories";

/** A statement as the database's owner: what the app's role may not do to the log and its digests. */
export function asOwner<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, values: unknown[] = []) {
  return withClient(process.env.DATABASE_URL!, (client) => client.query<R>(sql, values));
}

/** Records `count` events, each in a transaction of its own (as the app records them). */
export async function recordEvents(organizationId: string, userId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { id } = await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId,
        action: "member.role_changed",
        actor: { kind: "user", id: userId },
        target: { type: "user", id: userId },
        details: i % 2 === 0 ? { from: "admin", to: "owner" } : { from: "owner", to: "admin" },
      }),
    );
    ids.push(id);
  }
  return ids;
}

/** Seals the organization's log now, with the file's signing key. */
export async function seal(organizationId: string) {
  return sealOrganization(organizationId, currentSigningKey()!);
}

/** An organization whose log has `digests` digests of `perDigest` events each; the event ids per digest. */
export async function sealedOrganization(digests = 3, perDigest = 3) {
  const user = await createUser();
  const organization = await createOrganizationWith([{ userId: user.id, role: "owner" }]);
  const events: string[][] = [];
  for (let d = 0; d < digests; d++) {
    events.push(await recordEvents(organization.id, user.id, perDigest));
    await seal(organization.id);
  }
  return { user, organization, events };
}

/** The event's creation time as a verdict names it. */
export async function createdAtOf(organizationId: string, eventId: string): Promise<string> {
  const { rows } = await asOwner<{ created_at: Date }>("SELECT created_at FROM audit_events WHERE organization_id = $1 AND id = $2", [
    organizationId,
    eventId,
  ]);
  return rows[0]!.created_at.toISOString();
}

/** A forged copy of an event: a new id, the transaction id given (null: none), inserted as the owner. */
export async function forgeEvent(organizationId: string, copyOf: string, transactionId: string | null): Promise<string> {
  const id = uuidv7();
  await asOwner(
    `INSERT INTO audit_events
     SELECT (jsonb_populate_record(NULL::audit_events,
               to_jsonb(e) || jsonb_build_object('id', $3::text, 'transaction_id', $4::text, 'idempotency_key', NULL,
                                                 'correlation_id', $5::text))).*
     FROM audit_events e WHERE organization_id = $1 AND id = $2`,
    [organizationId, copyOf, id, transactionId, randomUUID()],
  );
  return id;
}

/** A transaction id of an event, as text. */
export async function transactionIdOf(organizationId: string, eventId: string): Promise<string> {
  const { rows } = await asOwner<{ transaction_id: string }>(
    "SELECT transaction_id::text AS transaction_id FROM audit_events WHERE organization_id = $1 AND id = $2",
    [organizationId, eventId],
  );
  return rows[0]!.transaction_id;
}

// Audit streaming's test helpers: a real HTTP receiver on this machine that records every body,
// streams written the way the service writes them (the data model of issue 32), and audited
// changes recorded through the real recorder, in transactions the test can hold open.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import { v7 as uuidv7 } from "uuid";
import { prisma } from "~/db.server";
import { recordAuditEvent } from "~/audit/record.server";
import type { StreamEvent } from "~/audit-streams/stream-event";
import type { Tx } from "~/db.server";
import { deliverStream } from "~/audit-streams/delivery/deliver-stream.server";
import { queryOnce } from "../scripts/lib/pg-client.ts";
import { createOrganizationWith, createUser } from "./factories";

export interface Receiver {
  url: string;
  /** Every body received, in arrival order (also those answered with an error). */
  bodies: { type: string; version: number; data: StreamEvent[] }[];
  /** The status answered from now on (200 by default). */
  answer(status: number): void;
  /** The ids of the events received in accepted (2xx) batches, in arrival order. */
  acceptedIds(): string[];
  /** Forgets what was received and answers 200 again. */
  reset(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let status = 200;
  const bodies: Receiver["bodies"] = [];
  const accepted: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Receiver["bodies"][number];
      bodies.push(body);
      if (status < 300) accepted.push(...body.data.map((event) => event.id));
      response.writeHead(status, { "content-type": "text/plain" }).end(status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    answer: (next) => void (status = next),
    acceptedIds: () => [...accepted],
    reset: () => {
      status = 200;
      bodies.length = 0;
      accepted.length = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A webhook stream delivering from the start of the log (cursor at the beginning), as a row. */
export async function createWebhookStream(organizationId: string, url: string, name = "SIEM"): Promise<string> {
  const id = uuidv7();
  await prisma.$executeRaw`
    INSERT INTO audit_streams (organization_id, id, name, kind, settings, credentials)
    VALUES (${organizationId}::uuid, ${id}::uuid, ${name}, 'webhook', ${JSON.stringify({ url })}::jsonb,
            ${JSON.stringify({ secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" })}::jsonb)`;
  return id;
}

/**
 * Records one audited change in `tx`, by `userId`; its event id. `action`: a rename of the
 * organization, or its creation. Two actions, because the recorder's per-day count of an action
 * (audit_event_days) is a row every event of that action in the organization updates: two
 * transactions recording the same action wait for each other, different actions do not.
 */
export async function recordChange(
  tx: Tx,
  organizationId: string,
  userId: string,
  label: string,
  action: "renamed" | "created" = "renamed",
): Promise<string> {
  const common = {
    organizationId,
    actor: { kind: "user" as const, id: userId },
    target: { type: "organization" as const, id: organizationId },
  };
  const { id } =
    action === "renamed"
      ? await recordAuditEvent(tx, { ...common, action: "organization.settings_changed", details: { name: { from: "before", to: label } } })
      : await recordAuditEvent(tx, { ...common, action: "organization.created", details: { name: label, slug: "held" } });
  return id;
}

/** Records `count` changes, each in its own transaction; their ids in order. */
export async function recordChanges(organizationId: string, userId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await prisma.$transaction((tx) => recordChange(tx, organizationId, userId, `n${i}`)));
  return ids;
}

/**
 * A transaction that records one event and stays open until `commit()` is called: the event has
 * its transaction id from the start but is invisible until then.
 */
export async function openTransactionWithEvent(organizationId: string, userId: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let recorded!: (id: string) => void;
  const eventId = new Promise<string>((resolve) => (recorded = resolve));
  const done = prisma.$transaction(
    async (tx) => {
      // Another action than recordChanges' (see recordChange): later transactions must not wait for this one.
      recorded(await recordChange(tx, organizationId, userId, `held-${randomUUID().slice(0, 8)}`, "created"));
      await released;
    },
    { timeout: 60_000 },
  );
  return {
    eventId: await eventId,
    commit: async () => {
      release();
      await done;
    },
  };
}

/** The stream's row as the tests check it. */
export async function streamRow(organizationId: string, streamId: string) {
  const [row] = await prisma.$queryRaw<
    {
      cursorEventId: string;
      consecutiveFailures: number;
      nextAttemptAt: Date | null;
      failingSince: Date | null;
      failingNotifiedAt: Date | null;
      lastDeliveredAt: Date | null;
    }[]
  >`SELECT cursor_event_id AS "cursorEventId", consecutive_failures AS "consecutiveFailures", next_attempt_at AS "nextAttemptAt",
           failing_since AS "failingSince", failing_notified_at AS "failingNotifiedAt", last_delivered_at AS "lastDeliveredAt"
    FROM audit_streams WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid`;
  return row;
}

/** The stream may try again now (its retry pause is over). */
export async function endRetryPause(organizationId: string, streamId: string): Promise<void> {
  await prisma.$executeRaw`UPDATE audit_streams SET next_attempt_at = now() - interval '1 second'
    WHERE organization_id = ${organizationId}::uuid AND id = ${streamId}::uuid`;
}

/** An owner and a new Enterprise organization of theirs. */
export async function enterpriseOrganization() {
  const owner = await createUser({ name: "Olga Owner" });
  const organization = await createOrganizationWith([{ userId: owner.id, role: "owner" }], { planId: "enterprise" });
  return { owner, organization };
}

/** Runs the stream's job until it has caught up (or stops for another reason); the outcomes. */
export async function deliverAll(organizationId: string, streamId: string) {
  const outcomes = [];
  for (let run = 0; run < 20; run++) {
    const outcome = await deliverStream(organizationId, streamId);
    outcomes.push(outcome);
    if (outcome !== "more") break;
  }
  return outcomes;
}

/** The organization's events in stream order, as the owner reads them. */
export async function streamOrder(organizationId: string): Promise<string[]> {
  const { rows } = await queryOnce<{ id: string }>(
    process.env.DATABASE_URL!,
    `SELECT id FROM audit_events WHERE organization_id = $1 ORDER BY COALESCE(transaction_id, '0'::xid8), id`,
    [organizationId],
  );
  return rows.map((row) => row.id);
}
